import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../../components/PageShell';
import styles from './NotFoundPage.module.css';

export default function NotFoundPage() {
  useDocumentTitle('Page Not Found');
  return (
    <main className={styles.page}>
      <h1 className={styles.title}>404 Page Not Found</h1>
      <p className={styles.text}>The page you are looking for does not exist or has moved.</p>
      <Link to="/" className={styles.link}>
        Go to the home page
      </Link>
    </main>
  );
}
