import { HISTORY_KEEP_DAYS, HISTORY_SNAPSHOT_DAYS } from '@spacecadet/contract';
import { Link } from 'react-router';
import { asClause, NOT_NAMED, operatorInfo, PrivacyContact } from '../operator.tsx';
import { LegalPage } from './LegalPage.tsx';

/** Where a signed-in user downloads or deletes their own data. */
export const YOUR_DATA_PATH = '/account';

export default function Privacy() {
  const { name } = operatorInfo();
  return (
    <LegalPage title="Privacy Policy" updated="November 2026">
      <p>
        This policy explains what Space Cadet collects when it runs in your server and when you use the
        dashboard, why, how long it is kept, and how to get a copy of it or delete it. This deployment is run
        by {name ? <strong>{name}</strong> : <>its operator ({asClause(NOT_NAMED.operator)})</>}.
      </p>

      <h2>What we collect</h2>
      <ul>
        <li>
          <strong>User IDs</strong>: Discord user IDs of members who use commands, pick roles from panels or
          earn XP, so the bot can give the right roles and keep level progress.
        </li>
        <li>
          <strong>Server IDs</strong>: the IDs of servers the bot is in, to keep each server&rsquo;s settings
          apart.
        </li>
        <li>
          <strong>Configuration data</strong>: the settings administrators save in the dashboard, such as
          color and personality roles, leveling settings, channels and the raw configuration.
        </li>
        <li>
          <strong>Message content (optional)</strong>: only for features that need it, such as the planned
          dictionary lookups, translation, mod logs and anti-spam filters (not built yet), and only when a
          server enables them. It is processed to perform the feature and is not kept longer than the feature
          needs.
        </li>
        <li>
          <strong>Dashboard account information</strong>: when you sign in, your Discord ID, username,
          discriminator, avatar and the list of servers you manage, so we can show the servers you can
          configure.
        </li>
      </ul>

      <h2>How long we keep it</h2>
      <ul>
        <li>
          <strong>Sign-in sessions</strong>: signing in keeps this browser signed in for up to 30 days (a
          cookie only our API can read, holding a random token of which we keep only a hash), until you sign
          out here or everywhere; each tab&rsquo;s session lasts one hour and is renewed from it. A
          session&rsquo;s record (your name, avatar, when it started and ended, and your Discord sign-in
          tokens, encrypted) is removed the next time you sign in once it has been over for a day.
        </li>
        <li>
          <strong>XP, levels and daily activity</strong>: kept until you delete your data, or the
          server&rsquo;s administrators reset it or remove members who left.
        </li>
        <li>
          <strong>Role picks</strong> (your color and personality choices): until you change them, leave the
          server or delete your data.
        </li>
        <li>
          <strong>A server&rsquo;s data</strong>: while the bot is in the server. When the bot is removed, it
          is kept 30 days (unless this deployment set another period) so adding the bot back restores
          everything, then deleted. The server owner can delete it at any time from the dashboard.
        </li>
        <li>
          <strong>History entries</strong> (who changed a server&rsquo;s settings, and the members a change
          named): {HISTORY_KEEP_DAYS} days; what an undo needs, {HISTORY_SNAPSHOT_DAYS} days. When you delete
          your data, the entries stay for the server without your name and avatar.
        </li>
        <li>
          <strong>Short-lived copies</strong> (XP cooldowns, your list of servers, picks being applied):
          minutes at most, and deleted with your data.
        </li>
      </ul>

      <h2>How we use it</h2>
      <p>
        Only to run Space Cadet&rsquo;s features, keep it secure and fix problems. We do not use your data for
        advertising.
      </p>

      <h2>We do not sell your data</h2>
      <p>We do not sell, rent or trade personal data to anyone.</p>

      <h2>Deletion and data requests</h2>
      <ul>
        <li>
          <strong>Your own data</strong>: sign in and open <Link to={YOUR_DATA_PATH}>Your data</Link> to{' '}
          <Link to={YOUR_DATA_PATH}>download my data</Link> (everything stored about you, as a file) or{' '}
          <Link to={YOUR_DATA_PATH}>delete my data</Link> (your XP, activity and picks in every server; you
          are signed out everywhere).
        </li>
        <li>
          <strong>A server&rsquo;s data</strong>: the server owner deletes it from the server&rsquo;s page in
          the dashboard.
        </li>
        <li>
          <strong>Anything else</strong>: write to the privacy contact of this deployment: <PrivacyContact />
        </li>
      </ul>

      <h2>Changes</h2>
      <p>If this policy changes, we update the date above.</p>
    </LegalPage>
  );
}
