import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The console is served by Cairn at /console from the server jar's classpath (console/): Vite
// writes straight into the Maven module's target/classes so the jar plugin packages it.
export default defineConfig({
  root: fileURLToPath(new URL('src/main/web', import.meta.url)),
  base: '/console/',
  build: {
    outDir: fileURLToPath(new URL('target/classes/console', import.meta.url)),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1024,
  },
});
