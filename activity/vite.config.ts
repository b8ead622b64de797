import { defineConfig } from "vite";

// Relative asset URLs: inside Discord every request goes through the app's own mapped host
// (docs/activity.md, "The URL mapping"), so the built page must not assume a base path.
export default defineConfig({
  base: "./",
  build: { target: "es2022", outDir: "dist", emptyOutDir: true, sourcemap: false },
  server: { port: 5173, proxy: { "/api": "http://127.0.0.1:8080", "/ws": { target: "ws://127.0.0.1:8080", ws: true } } },
});
