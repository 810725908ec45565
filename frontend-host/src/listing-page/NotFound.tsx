import { PROPERTY_NOT_FOUND } from '@app/contracts/rules';

export function NotFound() {
  return (
    <main className="lp-notfound">
      <h1>{PROPERTY_NOT_FOUND.title}</h1>
      <p>{PROPERTY_NOT_FOUND.description}</p>
      <a className="lp-button lp-primary" href="/">
        Return Home
      </a>
    </main>
  );
}
