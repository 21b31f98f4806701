import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, Outlet, type RouteObject, useLocation } from 'react-router';
import { CenteredLoader } from '../components/ui/centered-loader.tsx';
import { RedirectSignedIn, RequireSession } from './guard.tsx';

// Every page, and the private shell, is its own chunk: /signin loads no dashboard code, / no form or diagram.
const PrivateLayout = lazy(() => import('./shell/private-layout.tsx').then((m) => ({ default: m.PrivateLayout })));
const SigninPage = lazy(() => import('../features/auth/pages/signin-page.tsx'));
const SignupCompanyPage = lazy(() => import('../features/auth/pages/signup-company-page.tsx'));
const SignupUserPage = lazy(() => import('../features/auth/pages/signup-user-page.tsx'));
const ValidatePage = lazy(() => import('../features/auth/pages/validate-page.tsx'));
const RecoveryPage = lazy(() => import('../features/auth/pages/recovery-page.tsx'));
const RecoverySuccessPage = lazy(() => import('../features/auth/pages/recovery-success-page.tsx'));
const ResetPasswordPage = lazy(() => import('../features/auth/pages/reset-password-page.tsx'));
const AnalyticsPage = lazy(() => import('../features/analytics/pages/analytics-page.tsx'));
const DomainsPage = lazy(() => import('../features/domains/pages/domains-page.tsx'));
const PrivacyPage = lazy(() => import('../features/persons/pages/privacy-page.tsx'));
const ChannelsPage = lazy(() => import('../features/channels/pages/channels-page.tsx'));
const MediaPage = lazy(() => import('../features/media/pages/media-page.tsx'));
const SettingsPage = lazy(() => import('../features/settings/pages/settings-page.tsx'));
const ProfilePage = lazy(() => import('../features/profile/pages/profile-page.tsx'));
const PaymentPage = lazy(() => import('../features/payment/pages/payment-page.tsx'));
const MomentumsPage = lazy(() => import('../features/momentums/pages/momentums-page.tsx'));
const CampaignsPage = lazy(() => import('../features/campaigns/pages/campaigns-page.tsx'));
const MomentumCreatePage = lazy(() => import('../features/momentums/pages/momentum-form-page.tsx'));
const CampaignCreatePage = lazy(() => import('../features/campaigns/pages/campaign-form-page.tsx'));
const MomentumDiagramPage = lazy(() => import('../features/diagram/pages/momentum-diagram-page.tsx'));
const CampaignDiagramPage = lazy(() => import('../features/diagram/pages/campaign-diagram-page.tsx'));
const DeliveryLogPage = lazy(() => import('../features/deliveries/pages/delivery-log-page.tsx'));
const ExperimentPage = lazy(() => import('../features/analytics/pages/experiment-page.tsx'));
const JourneyPage = lazy(() => import('../features/analytics/pages/journey-page.tsx'));
const DcmPage = lazy(() => import('../features/dcm/pages/dcm-page.tsx'));
const DcmManagerPage = lazy(() => import('../features/dcm/pages/dcm-manager-page.tsx'));
const NotFoundPage = lazy(() => import('./not-found-page.tsx'));

/** Older list and form routes lead to the v2 lists, keeping the query (READINGS A-26). */
function RedirectKeepingQuery({ to }: { to: string }) {
  const { search } = useLocation();
  return <Navigate to={`${to}${search}`} replace />;
}

function RootLayout() {
  return (
    <Suspense fallback={<CenteredLoader fullScreen />}>
      <Outlet />
    </Suspense>
  );
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        element: <RedirectSignedIn />,
        children: [
          { path: '/signin', element: <SigninPage /> },
          { path: '/signup/company', element: <SignupCompanyPage /> },
        ],
      },
      { path: '/signup/user', element: <SignupUserPage /> },
      { path: '/validate', element: <ValidatePage /> },
      { path: '/recovery', element: <RecoveryPage /> },
      { path: '/recovery/success', element: <RecoverySuccessPage /> },
      { path: '/recovery/reset', element: <ResetPasswordPage /> },
      { path: '/momentums', element: <RedirectKeepingQuery to="/v2/momentums" /> },
      { path: '/v1/momentums', element: <RedirectKeepingQuery to="/v2/momentums" /> },
      { path: '/v1/momentum/create', element: <RedirectKeepingQuery to="/v2/momentum/create" /> },
      { path: '/campaigns', element: <RedirectKeepingQuery to="/v2/campaigns" /> },
      { path: '/campaign/create', element: <RedirectKeepingQuery to="/v2/campaign/create" /> },
      {
        element: <RequireSession />,
        children: [
          {
            element: <PrivateLayout />,
            children: [
              { path: '/', element: <AnalyticsPage /> },
              { path: '/domains', element: <DomainsPage /> },
              { path: '/domains/:uuid/privacy', element: <PrivacyPage /> },
              { path: '/channels', element: <ChannelsPage /> },
              { path: '/media', element: <MediaPage /> },
              { path: '/settings', element: <SettingsPage /> },
              { path: '/profile', element: <ProfilePage /> },
              { path: '/payment', element: <PaymentPage /> },
              { path: '/v2/momentums', element: <MomentumsPage /> },
              { path: '/v2/campaigns', element: <CampaignsPage /> },
              { path: '/v2/momentum/create', element: <MomentumCreatePage /> },
              { path: '/v2/campaign/create', element: <CampaignCreatePage /> },
              { path: '/momentum/diagram', element: <MomentumDiagramPage /> },
              { path: '/campaign/diagram', element: <CampaignDiagramPage /> },
              { path: '/v2/deliveries', element: <DeliveryLogPage /> },
              { path: '/v2/experiment', element: <ExperimentPage /> },
              { path: '/v2/journey', element: <JourneyPage /> },
              { path: '/dcm', element: <DcmPage /> },
              { path: '/dcm/manager', element: <DcmManagerPage /> },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export const createAppRouter = () => createBrowserRouter(routes);
