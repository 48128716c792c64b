import { LIVE_FEATURES, PRODUCT_FEATURES } from '@spacecadet/core/product-features';
import { describe, expect, it } from 'vitest';
import { hostFeatures } from '../src/features/host.ts';
import { FEATURES } from '../src/features/index.ts';

/**
 * The landing page, the overview and the sidebar say what the bot does from core's feature list;
 * this holds the list to what the worker really registers.
 */
describe("core's feature list against the worker", () => {
  const registered = hostFeatures(FEATURES).commands.map((command) => command.data.name);

  it('names every slash command the worker registers, and no other', () => {
    expect(PRODUCT_FEATURES.flatMap((feature) => feature.commands).sort()).toEqual([...registered].sort());
  });

  it('gives each command to the feature whose worker module registers it', () => {
    for (const workerFeature of FEATURES) {
      const commands = 'commands' in workerFeature ? workerFeature.commands.map((c) => c.data.name) : [];
      if (commands.length === 0) continue;
      const listed = PRODUCT_FEATURES.find((feature) => feature.id === workerFeature.name);
      expect(listed?.commands, workerFeature.name).toEqual(commands);
    }
  });

  it('calls live exactly the features the worker runs for members (jobs, panels or commands)', () => {
    // A feature whose only jobs are its own schedules' (history's daily prune) is upkeep, not a
    // feature members or admins use.
    const startedJobs = (feature: (typeof FEATURES)[number]) => {
      const scheduled = new Set('schedules' in feature ? feature.schedules.map((s) => s.job) : []);
      return 'jobs' in feature ? Object.keys(feature.jobs).filter((job) => !scheduled.has(job as never)) : [];
    };
    // member-picks is upkeep too: it only applies the picks members made on other features'
    // panels while Discord could not be reached. guild-data is data care: it deletes a server's
    // data on its owner's request or when its retention ends.
    const upkeep = new Set(['member-picks', 'guild-data']);
    // Worker features that are part of another product feature: auto-roles and sticky roles are
    // the Welcome page's roles.
    const partOf: Readonly<Record<string, string>> = { 'auto-roles': 'welcome' };
    const forMembers = [
      ...new Set(
        FEATURES.filter(
          (feature) =>
            !upkeep.has(feature.name) &&
            (startedJobs(feature).length > 0 || 'components' in feature || 'commands' in feature),
        ).map((feature) => partOf[feature.name] ?? feature.name),
      ),
    ];
    expect(forMembers).not.toContain('history');
    expect(LIVE_FEATURES.map((feature) => feature.id).sort()).toEqual([...forMembers].sort());
  });
});
