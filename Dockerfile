# The product as one image: API, jobs, server-rendered pages and the built frontends on one port.
# Node 22 LTS: what pg-boss 12 and the OpenTelemetry SDK require (README: Node.js versions).
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.base.json ./
COPY contracts/package.json contracts/
COPY backend/package.json backend/
COPY frontend-host/package.json frontend-host/
COPY frontend-dashboard/package.json frontend-dashboard/
COPY frontend-admin/package.json frontend-admin/
COPY scripts/package.json scripts/
RUN npm ci --no-audit --no-fund
COPY . .
RUN node scripts/build.mjs --force && npm prune --omit=dev

FROM node:22-bookworm-slim
ENV NODE_ENV=production PORT=3000
WORKDIR /app
COPY --from=build /app /app
# Local uploads and the email outbox live here unless GCS / SMTP are configured.
RUN mkdir -p /app/.data && chown node:node /app/.data
VOLUME /app/.data
USER node
# 3000: the app; 9464: Prometheus metrics, when METRICS_PORT is set (never on the public port).
EXPOSE 3000 9464
HEALTHCHECK --interval=10s --timeout=3s --retries=5 CMD node -e "fetch('http://127.0.0.1:3000/api/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# backend/otel.mjs starts OpenTelemetry tracing when OTEL_EXPORTER_OTLP_ENDPOINT is set, and does nothing otherwise.
# `node backend/dist/migrate.js` migrates and exits (the Kubernetes migrate Job).
CMD ["node", "--import", "./backend/otel.mjs", "backend/dist/server.js"]
