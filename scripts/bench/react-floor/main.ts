/** The smallest React app: the size floor the dashboard's landing bundle is compared with. */
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';

const root = document.getElementById('root');
if (root) createRoot(root).render(createElement('main', null, 'Space Cadet'));
