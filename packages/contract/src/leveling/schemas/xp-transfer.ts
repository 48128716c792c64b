import { z } from 'zod';
import { Snowflake } from '../../common.ts';
import { MEMBER_XP_MAX } from './member-xp.ts';

/**
 * XP import and export: the import's limits, query, bodies (CSV or MEE6 JSON) and answer, and
 * the export's CSV columns.
 */

/** The most rows one import takes. */
export const XP_IMPORT_MAX_ROWS = 100_000;
/** How many skipped rows an import answer lists (it counts them all). */
export const XP_IMPORT_SKIPPED_LISTED = 100;
export const XP_IMPORT_MODES = ['replace', 'add'] as const;
export const XpImportQuery = z.object({
  mode: z
    .enum(XP_IMPORT_MODES, { error: 'mode must be replace or add' })
    .default('replace')
    .meta({ description: "replace: a listed member's XP becomes the file's; add: it is added to theirs" }),
});
export const XpImportSkipped = z
  .object({
    /** 1-based line of the CSV (the header is line 1) or index+1 of the JSON player. */
    row: z.number().int().min(1),
    /**
     * Why: "user_id is not a Discord id", "xp is not a whole number of at least 0", "user_id …
     * is not a member of this server", "user_id … is a bot: bots earn no XP"...
     */
    reason: z.string().meta({
      description:
        'Why the row was not imported: a bad id or XP, a member listed again, or an id that is not a member of the server or is a bot',
    }),
  })
  .meta({ id: 'XpImportSkipped' });
export const XpImportResult = z
  .object({
    imported: z.number().int().min(0),
    skipped: z.number().int().min(0),
    /** The first skipped rows (at most XP_IMPORT_SKIPPED_LISTED), in file order. */
    skipped_rows: z.array(XpImportSkipped),
    /** Sync Roles, queued to bring levels' rewards in line. */
    job_id: z.string().nullable(),
  })
  .meta({ id: 'XpImportResult' });
export type XpImportResult = z.infer<typeof XpImportResult>;
const MEE6_SHAPE =
  'The JSON must be MEE6\'s leaderboard shape: { "players": [ { "id", "xp", "username"? } ] }';
/** One player of MEE6's leaderboard JSON as an import reads it (other fields are ignored). */
export const Mee6Player = z
  .looseObject({
    id: Snowflake,
    xp: z.number().int().min(0).max(MEMBER_XP_MAX),
    username: z.string().optional(),
  })
  .meta({ id: 'Mee6Player', description: 'A player that does not fit is skipped and counted, not refused' });
/** MEE6's public leaderboard page shape (`players`), the JSON an import takes, as OpenAPI shows it. */
export const Mee6Leaderboard = z
  .object({ players: z.array(Mee6Player).max(XP_IMPORT_MAX_ROWS) })
  .meta({ id: 'Mee6Leaderboard' });
/**
 * What the import checks of the JSON itself: a `players` list. Each player is read by the import
 * (a bad one is skipped and counted, not the whole file refused), and so is the row count (413
 * above XP_IMPORT_MAX_ROWS).
 */
export const Mee6LeaderboardBody = z.object(
  { players: z.array(z.unknown(), { error: MEE6_SHAPE }) },
  { error: MEE6_SHAPE },
);
/** The CSV an import takes: a header naming user_id and xp (any order, other columns ignored). */
export const XpImportCsv = z.string().meta({
  id: 'XpImportCsv',
  description:
    'RFC 4180 CSV: a header row naming user_id and xp (any order; other columns such as username are kept or ignored), then one row per member. A BOM and CRLF line ends are fine.',
  example: 'user_id,username,xp\n200000000000000001,ada,1500\n',
});
/**
 * The import's body, checked by the route itself by its content type (text/csv or
 * application/json); OpenAPI shows each content type's schema (the route's `bodyMediaTypes`).
 */
export const XpImportBody = z
  // Typed as the JSON shape for typed clients; a CSV upload sends the file's text instead.
  .custom<{ players: unknown[] }>(() => true)
  .meta({ description: 'text/csv or MEE6 leaderboard JSON' });
/** The largest import body (100,000 MEE6 players with every field MEE6 sends fit well under it). */
export const XP_IMPORT_BODY_LIMIT = 32 * 1024 * 1024;
/** Columns of `GET …/leveling/export`, in order. */
export const XP_EXPORT_COLUMNS = ['user_id', 'username', 'xp', 'level', 'rank'] as const;
/** The export's answer: CSV text (`Content-Type: text/csv`, sent as an attachment). */
export const XpExportCsv = z.string().meta({
  id: 'XpExportCsv',
  description: `text/csv (RFC 4180) with the header ${XP_EXPORT_COLUMNS.join(',')}, one row per ranked member by rank; a username starting with =, +, - or @ is prefixed with ' so spreadsheets do not run it`,
});
