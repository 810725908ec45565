// The zod-free door: the shell's own chunk stays free of zod (the contracts' index pulls the schemas in).
import { APP_ROUTES, type AppRouteName } from '@app/contracts/rules';
import { lazy, Suspense, type ReactElement } from 'react';
import { Route, Routes } from 'react-router-dom';
import { Spinner } from '@app/ui';
import { Toaster } from './features/toast/Toaster';

// Every screen is its own chunk, so the landing page downloads only the shell and its own screen.
export const loadCreationFlow = () => import('./features/creation-flow/CreationFlowPage');
const CreationFlowPage = lazy(loadCreationFlow);
const CheckoutPage = lazy(() => import('./features/checkout/CheckoutPage'));
const SuccessPage = lazy(() => import('./features/success/SuccessPage'));
const ListingPage = lazy(() => import('./features/listing/ListingPage'));
const ManualListingPage = lazy(() => import('./features/listing/ManualListingPage'));
const LoginPage = lazy(() => import('./features/login/LoginPage'));
const ForgotPasswordPage = lazy(() => import('./features/account/ForgotPasswordPage'));
const ResetPasswordPage = lazy(() => import('./features/account/ResetPasswordPage'));
const VerifyEmailPage = lazy(() => import('./features/account/VerifyEmailPage'));
const AutopilotLinkPage = lazy(() => import('./features/autopilot/AutopilotLinkPage'));
const SaveCardPage = lazy(() => import('./features/autopilot/SaveCardPage'));
const DashboardSection = lazy(() => import('./features/remotes/DashboardSection'));
const AdminSection = lazy(() => import('./features/remotes/AdminSection'));
const OverviewPage = lazy(() => import('./features/overview/OverviewPage'));
const NotFoundPage = lazy(() => import('./features/not-found/NotFoundPage'));
const TermsPage = lazy(() => import('./features/legal/TermsPage'));
const PrivacyPage = lazy(() => import('./features/legal/PrivacyPage'));

/**
 * Every route of APP_ROUTES (contracts), which the server also reads: any other path is answered with a 404
 * status and this shell, whose catch-all shows the 404 page. The dashboard and admin remotes have no routes
 * of their own below /dashboard and /admin, so /dashboard/x is a 404 too.
 */
const SCREENS: Record<AppRouteName, ReactElement> = {
  wizard: <CreationFlowPage />,
  checkout: <CheckoutPage />,
  success: <SuccessPage />,
  listing: <ListingPage />,
  manualListing: <ManualListingPage />,
  login: <LoginPage />,
  forgotPassword: <ForgotPasswordPage />,
  resetPassword: <ResetPasswordPage />,
  verifyEmail: <VerifyEmailPage />,
  autopilotLink: <AutopilotLinkPage />,
  autopilotCard: <SaveCardPage />,
  dashboard: <DashboardSection />,
  admin: <AdminSection />,
  overview: <OverviewPage />,
  terms: <TermsPage />,
  privacy: <PrivacyPage />,
};

export function App() {
  return (
    <>
      <Suspense fallback={<Spinner fullPage />}>
        <Routes>
          {(Object.keys(SCREENS) as AppRouteName[]).map((name) => (
            <Route key={name} path={APP_ROUTES[name]} element={SCREENS[name]} />
          ))}
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
      <Toaster />
    </>
  );
}
