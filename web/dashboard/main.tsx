/**
 * The browser entry of the dashboard that GET /dashboard serves.
 * scripts/build-dashboard.ts bundles it, with React and graphql-ws's client,
 * into dist/dashboard/; nothing here is loaded from anywhere but this server.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, followLegacyLink } from './app';

const container = document.getElementById('dashboard');
if (!container) throw new Error('the page has no #dashboard element');
container.textContent = '';
followLegacyLink();
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
