import { SUPPORT_SERVER_URL } from '../site.ts';
import { LegalPage } from './LegalPage.tsx';

export default function Privacy() {
  return (
    <LegalPage title="Privacy Policy" updated="November 2026">
      <p>
        This policy explains what Space Cadet collects when it runs in your server and when you use the
        dashboard, why, and how to ask us to delete it.
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
          configure. Your sign-in session ends when it expires or you log out.
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
      <p>
        To ask for a copy of your data or for its deletion, or to remove a server&rsquo;s stored
        configuration, contact us in the <a href={SUPPORT_SERVER_URL}>Space Cadet support server</a>. We
        answer requests from the user concerned, or for server data from an administrator of that server.
      </p>

      <h2>Changes</h2>
      <p>
        If this policy changes, we update the date above and announce significant changes in the support
        server.
      </p>
    </LegalPage>
  );
}
