/** The Welcome page: greeting, goodbye, auto-roles and sticky roles of a server, with live previews. */
import type { WelcomeSettings } from '@spacecadet/contract';
import { Navigate } from 'react-router';
import '../../styles/leveling.css';
import '../../styles/welcome.css';
import { errorText } from '../../lib/api-error.ts';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { BotNotInGuild, GuildPage, usePageGuard } from '../shared/GuildPage.tsx';
import { AutoRolesGroup, StickyRolesGroup } from './RoleGroups.tsx';
import { useWelcome, useWelcomeForm, WELCOME_FAILURES } from './useWelcomeForm.ts';
import { GoodbyeGroup, GreetingGroup } from './WelcomeSections.tsx';

export default function WelcomePage() {
  return (
    <GuildPage title="Welcome" noGuild={<Navigate to="/dashboard" replace />}>
      {(guildId) => <WelcomeScreen guildId={guildId} />}
    </GuildPage>
  );
}

function WelcomeScreen({ guildId }: { guildId: string }) {
  const guard = usePageGuard(guildId, useWelcome(guildId), {
    failure: (error) => errorText(error, WELCOME_FAILURES.load),
    bot: true,
  });
  if (!guard.ready) return guard.view;
  return (
    <>
      {guard.banner}
      <WelcomeForm guildId={guildId} initial={guard.data} botInGuild={guard.botInGuild} />
    </>
  );
}

function WelcomeForm({
  guildId,
  initial,
  botInGuild,
}: {
  guildId: string;
  initial: WelcomeSettings;
  botInGuild: boolean;
}) {
  const { form, set, save, problem, setProblem, dirty } = useWelcomeForm(guildId, initial);
  const fields = { guildId, botInGuild, form, set };
  return (
    <>
      <ErrorBox onDismiss={() => setProblem(null)}>{problem}</ErrorBox>
      {botInGuild ? null : <BotNotInGuild guildId={guildId} />}
      <section className="card form-card welcome-form" aria-label="Welcome settings">
        <GreetingGroup {...fields} />
        <GoodbyeGroup {...fields} />
        <AutoRolesGroup {...fields} />
        <StickyRolesGroup {...fields} />
        <div className="button-row welcome-save-bar">
          <button
            type="button"
            className="btn btn-primary"
            disabled={save.isPending || !dirty}
            onClick={() => save.mutate()}
          >
            {save.isPending ? 'Saving…' : 'Save'}
          </button>
          {save.isSuccess && !dirty ? <output className="save-note">Saved</output> : null}
          {dirty && !save.isPending ? <span className="muted small">Unsaved changes</span> : null}
        </div>
      </section>
    </>
  );
}
