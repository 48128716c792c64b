import { asClause, NOT_NAMED, operatorInfo, operatorLabel } from '../operator.tsx';
import { LegalPage } from './LegalPage.tsx';

export default function Terms() {
  const { name, supportUrl } = operatorInfo();
  return (
    <LegalPage title="Terms of Service" updated="November 2026">
      <p>
        These terms cover your use of Space Cadet: the Discord bot, this website and its dashboard. By adding
        the bot to a server or signing in to the dashboard you agree to them.
      </p>
      <p>
        This deployment of Space Cadet is run by{' '}
        {name ? <strong>{name}</strong> : <>its operator. {NOT_NAMED.operator}</>}
        {name ? '.' : null}
      </p>

      <h2>1. Eligibility</h2>
      <p>
        You must be at least 13 years old, and old enough to use Discord where you live, to use Space Cadet.
        If you add the bot to a server, you confirm you have the right to manage that server.
      </p>

      <h2>2. Using the bot</h2>
      <ul>
        <li>Use Space Cadet only in line with Discord&rsquo;s Terms of Service and Community Guidelines.</li>
        <li>
          Do not use it to spam, harass, or harm others, and do not try to overload, reverse engineer or get
          around its limits.
        </li>
        <li>
          Server administrators are responsible for how they configure the bot in their server, including the
          roles it creates and the channels it posts to.
        </li>
      </ul>

      <h2>3. Features may change</h2>
      <p>
        Space Cadet is provided as is and is under active development. We may add, change, limit or remove
        features (including those marked Coming Soon) at any time, with or without notice.
      </p>

      <h2>4. Server configurations</h2>
      <p>
        Settings you make in the dashboard are stored per server and tied to that server&rsquo;s ID, not to
        you personally. Any administrator of the server who signs in can see and change them. If the bot is
        removed and added again, the configuration stored for that server ID applies again.
      </p>

      <h2>5. Termination</h2>
      <p>
        You can stop using Space Cadet at any time by removing the bot from your server and signing out. We
        may suspend or end access for any server or user that breaks these terms or puts the service or others
        at risk.
      </p>

      <h2>6. Limitation of liability</h2>
      <p>
        To the extent the law allows, Space Cadet and its maintainers are not liable for indirect, incidental
        or consequential damages, lost data, lost roles or messages, or interruptions of service arising from
        your use of the bot or dashboard. Keep your own records of anything important to your server.
      </p>

      <h2>7. Governing law</h2>
      <p>
        These terms are governed by the laws of the place where {operatorLabel()} is established, without
        regard to conflict-of-law rules. Mandatory consumer protections of your country of residence still
        apply.
      </p>

      <h2>8. Changes to these terms</h2>
      <p>
        We may update these terms. When we do, we change the date at the top of this page, and for significant
        changes we announce them{' '}
        {supportUrl ? (
          <>
            in our <a href={supportUrl}>support server</a>
          </>
        ) : (
          <>on this page ({asClause(NOT_NAMED.support)})</>
        )}
        . Continuing to use Space Cadet after a change means you accept the updated terms.
      </p>
    </LegalPage>
  );
}
