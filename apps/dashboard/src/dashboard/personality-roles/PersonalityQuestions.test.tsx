import type { PersonalityInsights, PersonalityQuestion } from '@spacecadet/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { describe, expect, it } from 'vitest';
import { fakeApi, QUIET, STATION, signInAda } from '../../../test/fake-api.ts';
import { renderAt } from '../../../test/render.tsx';
import DashboardApp from '../DashboardApp.tsx';
import { NO_ANSWERS_YET } from './InsightsCard.tsx';

/**
 * The question list of a configured server: adding a question with the editor (roles, channels,
 * preview), editing one (removing an option whose role the bot made asks first, with its
 * holders), ordering, removing with a counted confirmation, importing Discord Onboarding, and
 * the refusal's own sentence.
 */
const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;
const base = `/api/guilds/${STATION.id}`;
const ROLES_CHANNEL = '300000000000000012';
const SNACKS = '300000000000000013';
const BLUE = '300000000000000101';
const XBOX_ROLE = '300000000000000102';
const ROLES = [
  { id: BLUE, name: 'Blue', color: 0x1e88e5, position: 9, managed: false },
  { id: XBOX_ROLE, name: 'Xbox', color: 0, position: 8, managed: false },
  { id: '300000000000000103', name: 'Some Bot', color: 0, position: 7, managed: true },
];
const GAMES: PersonalityQuestion = {
  question_id: 7,
  question_type: 'q7',
  title: 'Games',
  description: 'What do you play on?',
  role_count: 2,
  is_multi_select: false,
  is_enabled: true,
  created_roles: 1,
  options: [
    { option_id: 71, label: 'Xbox', emoji: '🎮', role_id: XBOX_ROLE, role_created: true, channel_ids: [] },
    {
      option_id: 72,
      label: 'PlayStation',
      emoji: null,
      role_id: BLUE,
      role_created: false,
      channel_ids: [SNACKS],
    },
  ],
};
const PRONOUNS: PersonalityQuestion = {
  question_id: 5,
  question_type: 'pronouns',
  role_count: 1,
  is_multi_select: true,
  is_enabled: true,
  created_roles: 1,
  options: [
    { option_id: 51, label: 'she/her', emoji: null, role_id: null, role_created: true, channel_ids: [] },
  ],
};
const INSIGHTS: PersonalityInsights = {
  days: 30,
  questions: [
    {
      question_id: 7,
      title: 'Games',
      answered: 4,
      options: [
        {
          option_id: 71,
          label: 'Xbox',
          role_id: XBOX_ROLE,
          holders: 3,
          picked: 5,
          unpicked: 2,
          xp_per_member: 120.4,
          still_here_after_7_days: 0.75,
        },
        {
          option_id: 72,
          label: 'PlayStation',
          role_id: BLUE,
          holders: 1,
          picked: 1,
          unpicked: 0,
          xp_per_member: 0,
          still_here_after_7_days: null,
        },
      ],
    },
  ],
};
const QUIET_QUESTION = {
  question_id: 5,
  title: 'Pronouns',
  answered: 0,
  options: [
    {
      option_id: 51,
      label: 'she/her',
      role_id: null,
      holders: 0,
      picked: 0,
      unpicked: 0,
      xp_per_member: 0,
      still_here_after_7_days: null,
    },
  ],
};
const NOBODY: PersonalityInsights = {
  days: 30,
  questions: INSIGHTS.questions.map((question) => ({ ...question, answered: 0, options: [] })),
};

type Answer = { status: number; body?: unknown };

function questionsApi(
  more: { insights?: PersonalityInsights; create?: Answer; importResult?: unknown } = {},
) {
  return fakeApi(({ method, path }) => {
    const key = `${method} ${path}`;
    if (key === 'GET /api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
    if (path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: true } };
    if (key === `GET ${base}/channels`)
      return {
        status: 200,
        body: {
          channels: [
            { id: ROLES_CHANNEL, name: 'roles' },
            { id: SNACKS, name: 'snacks' },
          ],
        },
      };
    if (key === `GET ${base}/roles`) return { status: 200, body: { roles: ROLES } };
    if (key === `GET ${base}/personality-roles`)
      return {
        status: 200,
        body: {
          configured: true,
          assign_channel_id: ROLES_CHANNEL,
          questions: [GAMES, PRONOUNS],
          last_refresh: null,
          onboarding: false,
        },
      };
    if (method === 'GET' && path.startsWith(`${base}/personality-roles/insights`))
      return { status: 200, body: { ...(more.insights ?? INSIGHTS), days: Number(path.split('days=')[1]) } };
    if (key === `POST ${base}/personality-roles/questions`)
      return more.create ?? { status: 201, body: { ...GAMES, question_id: 8, question_type: 'q8' } };
    if (key === `PUT ${base}/personality-roles/questions/order`)
      return { status: 200, body: { question_ids: [5, 7] } };
    if (method === 'PUT' && path.startsWith(`${base}/personality-roles/questions/`))
      return { status: 200, body: GAMES };
    if (method === 'DELETE' && path.startsWith(`${base}/personality-roles/questions/`))
      return { status: 202, body: { job_id: `personality-roles.refresh.${STATION.id}` } };
    if (key === `POST ${base}/personality-roles/import-onboarding`)
      return { status: 200, body: more.importResult ?? { question_ids: [], skipped: [] } };
    if (method === 'GET' && path.startsWith('/api/jobs/'))
      return {
        status: 200,
        body: {
          id: `personality-roles.refresh.${STATION.id}`,
          name: 'personality-roles.refresh',
          guild_id: STATION.id,
          state: 'completed',
          progress: 100,
          error: null,
          recovering: false,
        },
      };
    return undefined;
  });
}

const open = () => renderAt(`/dashboard/personality-roles?guild=${STATION.id}`, routes);
const editor = () => screen.getByRole('region', { name: /^(New question|Edit )/ });

describe('personality questions', () => {
  it('adds a question with an existing role and a channel, previewed as the bot posts it', async () => {
    signInAda();
    const api = questionsApi();
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Add question' }));
    const form = editor();
    fireEvent.change(within(form).getByLabelText('Title'), { target: { value: 'Favourite snack' } });
    fireEvent.change(within(form).getByLabelText('Label (option 1)'), { target: { value: 'Crisps' } });
    fireEvent.change(within(form).getByLabelText('Emoji (option 1)'), { target: { value: '🥔' } });
    fireEvent.change(within(form).getByLabelText('Label (option 2)'), { target: { value: 'Fruit' } });
    const role = within(form).getByLabelText('Role (option 2)');
    // Not an integration's role: nobody can give it.
    expect(within(role).queryByRole('option', { name: '@Some Bot' })).toBeNull();
    await within(role).findByRole('option', { name: '@Blue' });
    fireEvent.change(role, { target: { value: BLUE } });
    const channels = within(form).getByRole('combobox', { name: 'Channels it opens (option 1)' });
    await waitFor(() => expect(channels).toHaveProperty('disabled', false));
    fireEvent.focus(channels);
    const list = await screen.findByRole('listbox', { name: 'Channels it opens (option 1)' });
    fireEvent.click(within(list).getByRole('option', { name: '#snacks' }));
    fireEvent.click(within(form).getByRole('radio', { name: 'Multi-select' }));

    const preview = screen.getByRole('region', { name: 'Preview' });
    within(preview).getByText('Favourite snack');
    within(preview).getByText('Pick as many as you like; click again to remove.');
    within(preview).getByText('Crisps');
    within(preview).getByText('Fruit');
    within(preview).getByText('Clear my answer');

    fireEvent.click(within(form).getByRole('button', { name: 'Create question' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'New question' })).toBeNull());
    expect(api.calls.find((c) => c.method === 'POST' && c.path.endsWith('/questions'))?.body).toEqual({
      title: 'Favourite snack',
      description: '',
      is_multi_select: true,
      options: [
        { label: 'Crisps', emoji: '🥔', role_id: null, channel_ids: [SNACKS] },
        { label: 'Fruit', emoji: null, role_id: BLUE, channel_ids: [] },
      ],
    });
  });

  it("shows the API's refusal as it is in the error box and keeps the editor open", async () => {
    signInAda();
    const refusal = 'Question "Snack", option 2: a label is required';
    questionsApi({ create: { status: 400, body: { error: 'invalid_input', message: refusal } } });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Add question' }));
    fireEvent.change(within(editor()).getByLabelText('Title'), { target: { value: 'Snack' } });
    fireEvent.change(within(editor()).getByLabelText('Label (option 1)'), { target: { value: 'Crisps' } });
    fireEvent.click(within(editor()).getByRole('button', { name: 'Create question' }));
    await waitFor(() =>
      expect(screen.getAllByRole('alert').some((n) => n.textContent?.includes(refusal))).toBe(true),
    );
    within(screen.getByRole('region', { name: 'New question' })).getByText(`Not saved: ${refusal}`);
  });

  it('edits a question: removing an option whose role I made asks first, with its holders', async () => {
    signInAda();
    const api = questionsApi();
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Games' }));
    const form = editor();
    expect(within(form).getByLabelText('Title')).toHaveProperty('value', 'Games');
    // The role the bot made stays the option's: shown as "Create a role for me".
    expect(within(form).getByLabelText('Role (option 1)')).toHaveProperty('value', '');
    expect(within(form).getByLabelText('Role (option 2)')).toHaveProperty('value', BLUE);
    fireEvent.click(within(form).getByRole('button', { name: 'Remove option 1' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Add option' }));
    fireEvent.change(within(form).getByLabelText('Label (option 2)'), { target: { value: 'Switch' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save question' }));
    const dialog = await screen.findByRole('alertdialog');
    within(dialog).getByText(
      'Saving Games removes 1 option ("Xbox") and deletes the role I created for it in Discord. 3 members hold it now and will lose it.',
    );
    expect(api.calls.some((c) => c.method === 'PUT' && c.path.endsWith('/questions/7'))).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save and delete' }));
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'PUT' && c.path.endsWith('/questions/7'))?.body).toEqual({
        title: 'Games',
        description: 'What do you play on?',
        is_multi_select: false,
        options: [
          { option_id: 72, label: 'PlayStation', emoji: null, role_id: BLUE, channel_ids: [SNACKS] },
          { label: 'Switch', emoji: null, role_id: null, channel_ids: [] },
        ],
      }),
    );
  });

  it('saves an edit that removes no role of mine without asking', async () => {
    signInAda();
    const api = questionsApi();
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Games' }));
    fireEvent.click(within(editor()).getByRole('button', { name: 'Remove option 2' }));
    fireEvent.click(within(editor()).getByRole('button', { name: 'Save question' }));
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'PUT' && c.path.endsWith('/questions/7'))).toBeDefined(),
    );
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('orders the questions with the move buttons', async () => {
    signInAda();
    const api = questionsApi();
    open();
    const first = await screen.findByRole('button', { name: 'Move Games up' });
    expect(first).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Move Games down' }));
    await waitFor(() =>
      expect(api.calls.find((c) => c.path.endsWith('/questions/order'))?.body).toEqual({
        question_ids: [5, 7],
      }),
    );
  });

  it('removes a question after saying how many members hold its answers, its roles too when asked', async () => {
    signInAda();
    const api = questionsApi();
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Games' }));
    const dialog = await screen.findByRole('alertdialog');
    within(dialog).getByText(
      'Remove the question Games? Its message is deleted from the channel. 4 members hold its answers.',
    );
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /Also delete the 1 role I created/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove question and roles' }));
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'DELETE')?.path).toBe(
        `${base}/personality-roles/questions/7?delete_roles=true`,
      ),
    );
  });

  it('keeps the roles of a removed question unless asked', async () => {
    signInAda();
    const api = questionsApi();
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Games' }));
    const dialog = await screen.findByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove question' }));
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'DELETE')?.path).toBe(
        `${base}/personality-roles/questions/7?delete_roles=false`,
      ),
    );
  });

  it('says what an Onboarding import made and what it skipped, and why', async () => {
    signInAda();
    questionsApi({
      importResult: {
        question_ids: [11, 12],
        skipped: [{ title: 'Rules', reason: 'Option "Mods" gives 2 roles; an option here gives one.' }],
      },
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Import from Discord Onboarding' }));
    await screen.findByText(
      'Imported 2 questions from Discord Onboarding. Skipped 1 question: "Rules" (Option "Mods" gives 2 roles; an option here gives one).',
    );
  });

  it('shows insights as a chart and as a table, for the period chosen', async () => {
    signInAda();
    const api = questionsApi({
      insights: { ...INSIGHTS, questions: [...INSIGHTS.questions, QUIET_QUESTION] },
    });
    open();
    const table = await screen.findByRole('table', { name: 'Games: answers over the last 30 days' });
    // A question nobody answered is named, not charted.
    screen.getByText('Nobody answered yet: Pronouns.');
    expect(screen.queryByRole('table', { name: /^Pronouns/ })).toBeNull();
    const rows = within(table).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'AnswerMembers holding itPickedDroppedXP per memberNew members still here after 7 days',
      'Xbox35212075%',
      'PlayStation1100—',
    ]);
    const bars = screen.getAllByTestId('insight-bar');
    expect(bars.map((bar) => bar.style.width)).toEqual(['100%', `${(1 / 3) * 100}%`]);
    screen.getByText('5 picked, 2 dropped · 120 XP per member · 75% of new members still here after 7 days');
    fireEvent.change(screen.getByLabelText('Period'), { target: { value: '7' } });
    await screen.findByRole('table', { name: 'Games: answers over the last 7 days' });
    expect(api.calls.some((c) => c.path === `${base}/personality-roles/insights?days=7`)).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Show as table' }));
    expect(screen.queryAllByTestId('insight-bar')).toHaveLength(0);
  });

  it('says nobody answered yet', async () => {
    signInAda();
    questionsApi({ insights: NOBODY });
    open();
    await screen.findByText(NO_ANSWERS_YET);
  });
});
