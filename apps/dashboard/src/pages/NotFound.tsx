import { Link } from 'react-router';

export default function NotFound() {
  return (
    <main className="centered-state">
      <h1>Lost in space</h1>
      <p>This page does not exist.</p>
      <Link className="btn btn-primary" to="/">
        Back home
      </Link>
    </main>
  );
}
