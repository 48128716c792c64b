import { z } from 'zod';
import { JobAccepted, queryInt, queryWholeNumber, Snowflake, Timestamp } from '../common.ts';
import { INT4_MAX, SerialIdParam } from '../inputs.ts';
import { HISTORY_AREAS, HistoryAction, HistoryArea } from './actions.ts';

/** One field of a settings change, each side as the History page shows it (null: not set). */
export const HistoryChange = z
  .object({ field: z.string(), before: z.string().nullable(), after: z.string().nullable() })
  .meta({ id: 'HistoryChange' });
export type HistoryChange = z.infer<typeof HistoryChange>;

export const HISTORY_REF_KINDS = ['member', 'role', 'channel'] as const;
export type HistoryRefKind = (typeof HISTORY_REF_KINDS)[number];
/** A member, role or channel an entry names, with its name when the change was made. */
export const HistoryRef = z
  .object({ kind: z.enum(HISTORY_REF_KINDS), name: z.string() })
  .meta({ id: 'HistoryRef' });
export type HistoryRef = z.infer<typeof HistoryRef>;
/** By id: what the ids in an entry's summary and diff named then. */
export const HistoryRefs = z.record(Snowflake, HistoryRef).meta({ id: 'HistoryRefs' });
export type HistoryRefs = z.infer<typeof HistoryRefs>;

export const HistoryEntry = z
  .object({
    id: z.number().int(),
    at: Timestamp,
    /**
     * Who made the change (a dashboard user, or an admin through a Discord command), with the
     * name and avatar they had then.
     */
    actor_id: Snowflake,
    actor_name: z.string(),
    actor_avatar: z.string().nullable(),
    area: HistoryArea,
    action: HistoryAction,
    /** One line a person can read: "Changed XP per message from 15 to 20". */
    summary: z.string(),
    /** The diff of a settings change (empty for other entries). */
    changes: z.array(HistoryChange),
    /**
     * The members, roles and channels the summary and the diff name by id (`<@id>`, `<#id>`,
     * `-channel:<id>`...), named as they were then; an id missing here is shown as is.
     */
    refs: HistoryRefs,
    /** Undo is possible now: not undone yet, and what it needs is still kept. */
    undoable: z.boolean(),
    /** The id of the undo entry that undid this one. */
    undone_by: z.number().int().nullable(),
    /** For an undo: the entry it undid. */
    undo_of: z.number().int().nullable(),
    /** The job the change started (a reset, a post), to follow its progress. */
    job_id: z.string().nullable(),
  })
  .meta({ id: 'HistoryEntry' });
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const HISTORY_PAGE_MAX = 100;

export const HistoryQuery = z.object({
  limit: queryInt('limit', 1, HISTORY_PAGE_MAX, 50),
  /** An entry id: only entries older than it (the next page). */
  before: queryWholeNumber('before', 1, INT4_MAX).optional(),
  area: z.enum(HISTORY_AREAS, { error: `area must be one of ${HISTORY_AREAS.join(', ')}` }).optional(),
});

export const HistoryList = z
  .object({
    entries: z.array(HistoryEntry),
    /** Pass as `before` for the next page; null on the last page. */
    next_before: z.number().int().nullable(),
  })
  .meta({ id: 'HistoryList' });
export type HistoryList = z.infer<typeof HistoryList>;

export const HistoryEntryParams = z.object({ guildId: Snowflake, entryId: SerialIdParam });

const UndoOptions = z.object({ confirm: z.boolean().default(false) });
/**
 * `confirm`: undo even though something changed since (the 409 `changed_since` answer says what).
 * No body means `{}` (Fastify hands a missing body to validation as null).
 */
export const UndoBody = UndoOptions.nullable()
  .transform((body) => body ?? UndoOptions.parse({}))
  .meta({ id: 'UndoBody' });
export type UndoBody = z.infer<typeof UndoBody>;

/** The undo is done: its own history entry. */
export const UndoDone = z.object({ entry: HistoryEntry }).meta({ id: 'UndoDone' });
export type UndoDone = z.infer<typeof UndoDone>;
/** The undo's stored part is done and a job brings Discord back in line. */
export const UndoQueued = JobAccepted.extend({ entry: HistoryEntry }).meta({ id: 'UndoQueued' });
export type UndoQueued = z.infer<typeof UndoQueued>;

/**
 * What a destructive button will do, counted by the same code the action runs, for its
 * confirmation: `summary` is the sentence ("Delete 38 roles held by 412 members.").
 */
/**
 * What else names the roles a reset deletes, for its confirmation: `summary` is the sentence
 * ("Also used by 2 role menus and the Color Roles reaction list. …"); `menus` the role menus and
 * reaction lists by name.
 */
export const RoleUsage = z
  .object({
    summary: z.string(),
    menus: z.array(z.object({ id: z.string(), name: z.string() })),
    reward_roles: z.number().int(),
    no_xp_roles: z.number().int(),
    boosts: z.number().int(),
  })
  .meta({ id: 'RoleUsage' });
export type RoleUsage = z.infer<typeof RoleUsage>;

export const ImpactPreview = z
  .object({
    summary: z.string(),
    roles: z.number().int(),
    members: z.number().int(),
    /** Present when menus, rewards, no-XP roles or boosts use the roles (the resets' previews). */
    used_by: RoleUsage.optional(),
  })
  .meta({ id: 'ImpactPreview' });
export type ImpactPreview = z.infer<typeof ImpactPreview>;
