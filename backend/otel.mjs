// OpenTelemetry for the server, loaded before it: `node --import ./backend/otel.mjs backend/dist/server.js`
// (scripts/start.mjs passes it when OTEL_EXPORTER_OTLP_ENDPOINT is set; the Docker image always does).
// Without OTEL_EXPORTER_OTLP_ENDPOINT this file does nothing and no OpenTelemetry code is loaded.
// The app is CommonJS: the instrumentations hook require(), which this preload registers before the app's
// first require. See backend/src/platform/telemetry/tracing.ts.
if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) {
  const { startTracing } = await import('./dist/platform/telemetry/tracing.js');
  startTracing();
}
