import { describe, expect, it } from 'vitest';
import { previewImport } from './xp-import.ts';

describe('import preview', () => {
  it('reads MEE6 JSON players with the reasons the import will give', () => {
    const preview = previewImport(
      'mee6.json',
      JSON.stringify({
        players: [
          { id: '200000000000000001', xp: 1255, username: 'ada', level: 5 },
          { id: 'nope', xp: 10 },
          { id: 200000000000000, xp: '7.5' },
          ...Array.from({ length: 4 }, (_, i) => ({ id: `9000000000000000${i}`, xp: i })),
        ],
      }),
    );
    expect(preview).toMatchObject({ ok: true, kind: 'json', type: 'application/json', total: 7, skipped: 2 });
    if (!preview.ok) return;
    expect(preview.rows.map((row) => [row.row, row.userId, row.xp, row.username, row.problem])).toEqual([
      [1, '200000000000000001', '1255', 'ada', null],
      [2, 'nope', '10', null, 'id is not a Discord id'],
      [3, '200000000000000', '7.5', null, 'xp is not a whole number of at least 0'],
      [4, '90000000000000000', '0', null, null],
      [5, '90000000000000001', '1', null, null],
    ]);
  });

  it('refuses what the API refuses whole: not JSON, no players list', () => {
    expect(previewImport('x.json', '{ nope')).toEqual({ ok: false, problem: 'The file is not valid JSON.' });
    expect(previewImport('x.json', '{"members": []}')).toMatchObject({ ok: false });
  });

  it('reads a CSV with quoted cells and columns in any order', () => {
    const preview = previewImport(
      'xp.csv',
      'XP,"User_ID",username\n40,200000000000000002,"mo, the second"\n',
    );
    expect(preview).toMatchObject({ ok: true, kind: 'csv', total: 1, skipped: 0 });
    if (!preview.ok) return;
    expect(preview.rows[0]).toEqual({
      row: 2,
      userId: '200000000000000002',
      xp: '40',
      username: 'mo, the second',
      problem: null,
    });
  });
});
