/** The Initialize card: shown until the server has personality roles, with the categories to turn on. */
import { type ReactNode, useState } from 'react';
import {
  CHOOSE_CATEGORY,
  INIT_CATEGORIES,
  initChoiceText,
  PLEASE_SELECT_CHANNEL,
} from './personality-model.ts';

/** The Initialize card's categories: all on by default, the admin may turn some off. */
export function useCategoryChoice(): [ReadonlySet<string>, (type: string, on: boolean) => void] {
  const [categories, setCategories] = useState<ReadonlySet<string>>(
    () => new Set(INIT_CATEGORIES.map((c) => c.type)),
  );
  const pickCategory = (type: string, on: boolean) =>
    setCategories((current) => {
      const next = new Set(current);
      if (on) next.add(type);
      else next.delete(type);
      return next;
    });
  return [categories, pickCategory];
}

interface InitCardProps {
  categories: ReadonlySet<string>;
  onPickCategory: (type: string, on: boolean) => void;
  channel: string;
  pending: boolean;
  onInit: () => void;
  jobView: ReactNode;
}

export function InitCard({ categories, onPickCategory, channel, pending, onInit, jobView }: InitCardProps) {
  return (
    <section className="card init-card" aria-labelledby="init-title">
      <h2 id="init-title">Initialize Personality Roles</h2>
      <p className="muted">
        Adds the question categories (age range, pronouns, zodiac, gaming platform and more) to this server.
      </p>
      <fieldset className="category-choice">
        <legend>Categories to turn on</legend>
        <ul>
          {INIT_CATEGORIES.map((category) => (
            <li key={category.type}>
              <label className="checkbox-field">
                <input
                  type="checkbox"
                  checked={categories.has(category.type)}
                  onChange={(event) => onPickCategory(category.type, event.target.checked)}
                />
                <span>
                  {category.title} <span className="muted small">({category.roleCount} roles)</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      <p className="small" aria-live="polite">
        {categories.size > 0 ? initChoiceText(categories) : CHOOSE_CATEGORY}
      </p>
      {channel.trim() ? null : <p className="small">{PLEASE_SELECT_CHANNEL}</p>}
      <button
        type="button"
        className="btn btn-primary"
        disabled={pending || categories.size === 0}
        onClick={onInit}
      >
        Initialize Personality Roles
      </button>
      {jobView}
    </section>
  );
}
