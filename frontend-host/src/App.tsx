import { lazy, Suspense } from 'react';
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

export function App() {
  return (
    <>
      <Suspense fallback={<Spinner fullPage />}>
        <Routes>
          <Route path="/" element={<CreationFlowPage />} />
          <Route path="/checkout/:campaignId" element={<CheckoutPage />} />
          <Route path="/success" element={<SuccessPage />} />
          <Route path="/listing/:mlsId" element={<ListingPage />} />
          <Route path="/manual-listing/:mlsId" element={<ManualListingPage />} />
          <Route path="/login" element={<LoginPage />} />
          <Route path="/forgot-password" element={<ForgotPasswordPage />} />
          <Route path="/reset-password" element={<ResetPasswordPage />} />
          <Route path="/verify-email" element={<VerifyEmailPage />} />
          <Route path="/autopilot/:token" element={<AutopilotLinkPage />} />
          <Route path="/autopilot-card" element={<SaveCardPage />} />
          <Route path="/dashboard/*" element={<DashboardSection />} />
          <Route path="/admin/*" element={<AdminSection />} />
          <Route path="/overview" element={<OverviewPage />} />
          <Route path="/terms" element={<TermsPage />} />
          <Route path="/privacy" element={<PrivacyPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
      <Toaster />
    </>
  );
}
