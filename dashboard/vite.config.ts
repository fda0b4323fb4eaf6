// Builds the dashboard into dist/, served by the API at /dashboard (api/routes/dashboard_files.cpp).
// No inline script or style may reach the page: the API's Content-Security-Policy forbids both.
import {defineConfig} from 'vite';

export default defineConfig({
  base: '/dashboard/',
  esbuild: {jsx: 'automatic', jsxImportSource: 'preact'},
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,  // an inlined asset would be a data: URL the CSP need not allow
    modulePreload: {polyfill: false},
    sourcemap: false,
  },
});
