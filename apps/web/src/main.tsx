import './app/mantine-base.css';
import './app/global.css';
import 'dayjs/locale/pt-br';
import dayjs from 'dayjs';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { registerDashboardWorker } from './lib/dashboard-worker.ts';

dayjs.locale('pt-br');

const root = document.getElementById('root');
if (!root) throw new Error('#root not found');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

registerDashboardWorker();
