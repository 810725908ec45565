import { Link } from 'react-router-dom';
import { useDocumentTitle } from '../../components/PageShell';
import styles from './OverviewPage.module.css';

interface Step {
  name: string;
  title: string;
  text: string;
  points: string[];
}

/** The spec's 5-step flow, in order. */
const STEPS: Step[] = [
  {
    name: 'Agent registration',
    title: 'Tell us who you are',
    text: 'Enter your name and state. We look you up in the MLS and pull in your profile, so there is no account to create and no form to retype.',
    points: ['No sign-up or password to start', 'Your MLS profile filled in for you'],
  },
  {
    name: 'Listing selection',
    title: 'Pick the listing to promote',
    text: 'Your active and sold listings load with photos, price and address. Active homes become a Just Listed ad, sold homes a Just Sold ad.',
    points: ['Single image or carousel ads', 'Ad copy written from the listing facts'],
  },
  {
    name: 'Targeting setup',
    title: 'Reach buyers where they live',
    text: 'Choose the city and radius around the property, then add buyer interests. Every campaign runs in the housing ad category, so it stays fair-housing compliant.',
    points: ['Location, radius and interest templates', 'No age, gender or ZIP-code targeting'],
  },
  {
    name: 'Pricing and checkout',
    title: 'Set a budget, see the results first',
    text: 'Move the budget slider and watch the guaranteed impressions, estimated reach and campaign timeframe update before you pay.',
    points: ['Transparent impressions for every dollar', 'Secure card checkout'],
  },
  {
    name: 'Campaign launch',
    title: 'Go live on Facebook and Instagram',
    text: 'Your ad launches automatically with its own property page. Buyers who reach out land straight in your inbox, your CRM or your Zapier workflows.',
    points: ['Public property page with a lead form', 'Leads and results on your dashboard'],
  },
];

const STATS = [
  { value: 'Under 3 min', label: 'from listing to live campaign' },
  { value: '12,000+', label: 'campaigns launched by agents' },
  { value: '45M+', label: 'impressions delivered to local buyers' },
  { value: '4.8 / 5', label: 'average rating from agents' },
];

const FEATURES = [
  {
    title: 'A property page that sells',
    text: 'Every campaign gets a fast, mobile-first page with the photo gallery, key facts, schools and map, built for buyers arriving from a social feed.',
  },
  {
    title: 'Leads delivered your way',
    text: 'New inquiries arrive by email and instantly reach your tools through signed webhooks, Zapier or your CRM.',
  },
  {
    title: 'Results you can follow',
    text: 'Your dashboard tracks impressions against your goal, reach, clicks and every lead, so you can show sellers exactly what their marketing did.',
  },
  {
    title: 'Compliant by default',
    text: 'Campaigns run in the housing special ad category with a 15-mile minimum radius and no demographic exclusions, so you never have to second-guess a setting.',
  },
];

export default function OverviewPage() {
  useDocumentTitle('How it works');
  return (
    <div className={styles.page}>
      <header className={styles.nav}>
        <div className={styles.navInner}>
          <Link to="/overview" className={styles.brand}>
            Listing Ads
          </Link>
          <nav aria-label="Main" className={styles.navLinks}>
            <a href="#how-it-works" className={styles.navLink}>
              How it works
            </a>
            <Link to="/login" className={styles.navLink}>
              Agent login
            </Link>
            <Link to="/" className={styles.navCta}>
              Start a campaign
            </Link>
          </nav>
        </div>
      </header>

      <main>
        <section className={styles.hero}>
          <div className={styles.heroInner}>
            <p className={styles.eyebrow}>For real-estate agents</p>
            <h1 className={styles.heroTitle}>Put your listing in front of local buyers in under 3 minutes</h1>
            <p className={styles.heroText}>
              Turn any listing into a paid Facebook and Instagram campaign with guaranteed impressions. No ad
              account, no guesswork and no gimmicks: pick a listing, set a budget and launch.
            </p>
            <div className={styles.heroActions}>
              <Link to="/" className={styles.primaryButton}>
                Promote a listing
              </Link>
              <a href="#how-it-works" className={styles.secondaryButton}>
                See how it works
              </a>
            </div>
          </div>
        </section>

        <section aria-label="By the numbers" className={styles.stats}>
          <ul className={styles.statList}>
            {STATS.map((stat) => (
              <li key={stat.label} className={styles.stat}>
                <span className={styles.statValue}>{stat.value}</span>
                <span className={styles.statLabel}>{stat.label}</span>
              </li>
            ))}
          </ul>
        </section>

        <section id="how-it-works" className={styles.section} aria-labelledby="steps-title">
          <div className={styles.sectionHead}>
            <p className={styles.eyebrow}>How it works</p>
            <h2 id="steps-title" className={styles.sectionTitle}>
              Five steps from listing to live ad
            </h2>
            <p className={styles.sectionText}>
              Everything happens in one guided flow. Most agents are done before their coffee gets cold.
            </p>
          </div>
          <ol className={styles.steps}>
            {STEPS.map((step, index) => (
              <li key={step.name} className={styles.step}>
                <div className={styles.stepNumber} aria-hidden="true">
                  {index + 1}
                </div>
                <p className={styles.stepName}>
                  Step {index + 1}: {step.name}
                </p>
                <h3 className={styles.stepTitle}>{step.title}</h3>
                <p className={styles.stepText}>{step.text}</p>
                <ul className={styles.stepPoints}>
                  {step.points.map((point) => (
                    <li key={point}>{point}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
        </section>

        <section className={`${styles.section} ${styles.featuresSection}`} aria-labelledby="features-title">
          <div className={styles.sectionHead}>
            <p className={styles.eyebrow}>What you get</p>
            <h2 id="features-title" className={styles.sectionTitle}>
              More than an ad
            </h2>
          </div>
          <div className={styles.features}>
            {FEATURES.map((feature) => (
              <article key={feature.title} className={styles.feature}>
                <h3 className={styles.featureTitle}>{feature.title}</h3>
                <p className={styles.featureText}>{feature.text}</p>
              </article>
            ))}
          </div>
        </section>

        <section className={styles.cta} aria-labelledby="cta-title">
          <h2 id="cta-title" className={styles.ctaTitle}>
            Your next listing deserves an audience
          </h2>
          <p className={styles.ctaText}>Launch a campaign today and watch the impressions and leads come in.</p>
          <Link to="/" className={styles.ctaButton}>
            Start your campaign
          </Link>
        </section>
      </main>

      <footer className={styles.footer}>
        <p>© {new Date().getFullYear()} Listing Ads. Statistics shown are illustrative of platform results.</p>
        <nav aria-label="Footer" className={styles.footerLinks}>
          <Link to="/">Create a campaign</Link>
          <Link to="/login">Agent login</Link>
        </nav>
      </footer>
    </div>
  );
}
