import { buildPersonalityMessage } from '@spacecadet/core';
import { PreviewComponents } from '../role-menus/RoleMenuPreview.tsx';
import { hexOf } from '../shared/DiscordMarkup.tsx';
import type { QuestionDraft } from './question-editor-model.ts';

/**
 * The question as members will see it, laid out by core's buildPersonalityMessage: the same
 * function the bot posts with (buttons while they fit, else one select menu, and the clear button).
 */
export function PersonalityPreview({ draft }: { draft: QuestionDraft }) {
  const options = draft.options.filter((option) => option.label.trim() !== '');
  const message = buildPersonalityMessage({
    questionType: draft.questionType,
    title: draft.title.trim() || 'Untitled question',
    description: draft.description.trim(),
    isMultiSelect: draft.multi,
    options: options.map((option) => ({ label: option.label.trim(), emoji: option.emoji.trim() || null })),
  });
  return (
    <section className="card preview-card personality-preview" aria-labelledby="question-preview-title">
      <h2 id="question-preview-title">Preview</h2>
      <div className="discord-message">
        {message.embeds.map((embed) => (
          <div
            key="embed"
            className="discord-embed"
            data-testid="preview-embed"
            style={{ borderLeftColor: hexOf(embed.color) }}
          >
            {embed.title ? <p className="discord-embed-title">{embed.title}</p> : null}
            <ul className="discord-embed-lines">
              {embed.description.split('\n').map((line, index) => (
                // Lines can repeat: their place tells them apart.
                <li key={index}>{line}</li>
              ))}
            </ul>
          </div>
        ))}
        <PreviewComponents rows={message.components} />
      </div>
      <p className="muted small">
        Preview only: Post / Update Messages posts this in the assignment channel; members answer there.
      </p>
    </section>
  );
}
