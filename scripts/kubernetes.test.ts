/**
 * deploy/kubernetes: the base and every overlay rendered (scripts/kubernetes.mjs, the kustomize subset they
 * use) and each resource validated against the Kubernetes schemas (kubernetes-models; the prometheus-operator's
 * for the ServiceMonitor), then read for what the deployment must hold: probes, drain, autoscaling, disruption
 * budgets, the migrate Job, every configuration variable, and Services, selectors and ports that meet.
 * The renderer and the models are ESM-only packages: they run in a node child process.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
const script = path.join(root, 'scripts', 'kubernetes.mjs');

/* eslint-disable @typescript-eslint/no-explicit-any */
type Doc = any;
const rendered: Record<string, { docs: Doc[]; problems: string[] }> = JSON.parse(execFileSync(process.execPath, [script, 'check'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));

/** The variables of the README's configuration table. */
function readmeVariables(): string[] {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 5));
  const names = new Set<string>();
  for (const row of table.split('\n').filter((l) => l.startsWith('| `'))) {
    for (const m of row.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]+)`/g)) names.add(m[1]);
  }
  return [...names];
}

const find = (docs: Doc[], kind: string, name: string) => docs.find((d) => d.kind === kind && d.metadata.name === name);
const podsOf = (docs: Doc[]) => docs.filter((d) => d.spec?.template?.spec?.containers);
const matches = (selector: Record<string, string>, labels: Record<string, string> = {}) => Object.entries(selector).every(([k, v]) => labels[k] === v);

describe('deploy/kubernetes', () => {
  it('renders the base and the overlays, and every resource is valid against the Kubernetes schemas', () => {
    expect(Object.keys(rendered).sort()).toEqual(['base', 'overlays/production', 'overlays/staging']);
    for (const [dir, { docs, problems }] of Object.entries(rendered)) {
      expect({ dir, problems }).toEqual({ dir, problems: [] });
      expect(docs.length).toBeGreaterThan(10);
    }
  });

  it('the validation catches a wrong manifest (it is not a no-op)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'k8s-bad-'));
    const file = path.join(dir, 'bad.yaml');
    fs.writeFileSync(
      file,
      `apiVersion: apps/v1
kind: Deployment
metadata: { name: bad }
spec:
  replicas: two
  selector: { matchLabels: { a: b } }
  template:
    metadata: { labels: { a: b } }
    spec:
      containers: [{ name: c, image: i, ports: [{ containerPort: "80" }] }]
---
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata: { name: m }
spec: { endpoints: [{ port: 9464 }] }
`,
    );
    const res = spawnSync(process.execPath, [script, 'validate', file], { cwd: root, encoding: 'utf8' });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(res.status).toBe(1);
    const { problems } = JSON.parse(res.stdout);
    expect(problems.join('\n')).toMatch(/replicas must be integer/);
    expect(problems.join('\n')).toMatch(/containerPort must be integer/);
    expect(problems.join('\n')).toMatch(/ServiceMonitor\/m: .*(selector|port)/);
  });

  describe.each(Object.keys(rendered))('%s', (dir) => {
    const { docs } = rendered[dir];
    const web = find(docs, 'Deployment', 'listing-ads-web');
    const worker = find(docs, 'Deployment', 'listing-ads-worker');
    const webC = web.spec.template.spec.containers[0];
    const workerC = worker.spec.template.spec.containers[0];

    it('web: readiness on /api/ready, liveness on /api/health, a preStop drain, resources, an HPA on CPU, a PDB', () => {
      expect(webC.readinessProbe.httpGet).toEqual({ path: '/api/ready', port: 'http' });
      expect(webC.livenessProbe.httpGet).toEqual({ path: '/api/health', port: 'http' });
      expect(webC.lifecycle.preStop.exec.command).toEqual(['sleep', expect.stringMatching(/^\d+$/)]);
      expect(web.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(Number(webC.lifecycle.preStop.exec.command[1]));
      expect(webC.resources.requests).toEqual({ cpu: expect.any(String), memory: expect.any(String) });
      expect(webC.resources.limits.memory).toEqual(expect.any(String));
      const hpa = docs.find((d) => d.kind === 'HorizontalPodAutoscaler');
      expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'listing-ads-web' });
      expect(hpa.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: expect.any(Number) } } }]);
      expect(web.spec.replicas).toBeUndefined();
      const pdb = find(docs, 'PodDisruptionBudget', 'listing-ads-web');
      expect(matches(pdb.spec.selector.matchLabels, web.spec.template.metadata.labels)).toBe(true);
      expect(webC.env).toContainEqual({ name: 'JOBS_ENABLED', value: 'false' });
    });

    it('worker: JOBS_ENABLED=true, and no Service sends it traffic', () => {
      expect(workerC.env).toContainEqual({ name: 'JOBS_ENABLED', value: 'true' });
      const labels = worker.spec.template.metadata.labels;
      const services = docs.filter((d) => d.kind === 'Service' && matches(d.spec.selector, labels));
      // Only the headless metrics Service, with the metrics port alone.
      expect(services.map((s) => [s.metadata.name, s.spec.clusterIP, s.spec.ports.map((p: Doc) => p.name)])).toEqual([['listing-ads-metrics', 'None', ['metrics']]]);
    });

    it('migrations: a Job runs backend/dist/migrate.js once per release; the app pods wait for the schema', () => {
      const job = docs.find((d) => d.kind === 'Job');
      expect(job.spec.template.spec.containers[0].command).toEqual(['node', 'backend/dist/migrate.js']);
      expect(job.spec.template.spec.restartPolicy).toBe('Never');
      expect(job.spec.template.spec.containers[0].image).toBe(webC.image);
      if (dir !== 'base') expect(job.metadata.name).toBe(`listing-ads-migrate-${webC.image.split(':').pop()}`);
      const config = find(docs, 'ConfigMap', 'listing-ads-config');
      expect(config.data.MIGRATE_ON_START).toBe('false');
      for (const c of [webC, workerC]) expect(c.startupProbe.httpGet.path).toBe('/api/health');
    });

    it('every variable of the README configuration table comes from the ConfigMap or the Secret, in web and worker', () => {
      const vars = readmeVariables();
      expect(vars.length).toBeGreaterThan(45);
      for (const c of [webC, workerC]) {
        const byName = new Map<string, Doc>(c.env.map((e: Doc) => [e.name, e]));
        const missing = vars.filter((v) => !byName.has(v));
        expect({ container: c.name, missing }).toEqual({ container: c.name, missing: [] });
        for (const e of c.env) {
          const ref = e.valueFrom?.configMapKeyRef ?? e.valueFrom?.secretKeyRef;
          if (!ref) continue;
          expect(ref.key).toBe(e.name);
          expect(['listing-ads-config', 'listing-ads-secrets']).toContain(ref.name);
        }
        // The secrets the app needs in production are required; the providers' keys are optional.
        for (const required of ['DATABASE_URL', 'SESSION_SECRET', 'ENCRYPTION_KEY', 'ADMIN_PASSWORD']) {
          expect(byName.get(required).valueFrom.secretKeyRef).toEqual({ name: 'listing-ads-secrets', key: required });
        }
        for (const secret of ['STRIPE_SECRET_KEY', 'META_ACCESS_TOKEN', 'OPENAI_API_KEY', 'SMTP_URL', 'GCS_CREDENTIALS_JSON']) {
          expect(byName.get(secret).valueFrom.secretKeyRef).toEqual({ name: 'listing-ads-secrets', key: secret, optional: true });
        }
      }
      // The ConfigMap holds no secret.
      const config = find(docs, 'ConfigMap', 'listing-ads-config');
      for (const key of Object.keys(config.data)) expect(webC.env.find((e: Doc) => e.name === key)?.valueFrom?.configMapKeyRef).toBeDefined();
    });

    it('metrics: a ServiceMonitor scrapes the metrics port of every app pod, which no traffic Service exposes', () => {
      const monitor = docs.find((d) => d.kind === 'ServiceMonitor');
      const scraped = docs.filter((d) => d.kind === 'Service' && matches(monitor.spec.selector.matchLabels, d.metadata.labels));
      expect(scraped.map((s) => s.metadata.name)).toEqual(['listing-ads-metrics']);
      expect(monitor.spec.endpoints).toEqual([expect.objectContaining({ port: 'metrics', path: '/metrics' })]);
      const config = find(docs, 'ConfigMap', 'listing-ads-config');
      for (const c of [webC, workerC]) expect(c.ports).toContainEqual({ name: 'metrics', containerPort: Number(config.data.METRICS_PORT) });
      expect(find(docs, 'Service', 'listing-ads-web').spec.ports.map((p: Doc) => p.name)).toEqual(['http']);
    });

    it('the admin remote is its own Deployment and Service', () => {
      const admin = find(docs, 'Deployment', 'listing-ads-admin-remote');
      const service = find(docs, 'Service', 'listing-ads-admin-remote');
      expect(matches(service.spec.selector, admin.spec.template.metadata.labels)).toBe(true);
      expect(admin.spec.template.spec.initContainers[0].image).toBe(webC.image);
    });

    it('every Service selects pods, and its target ports are ports of those pods; every selector meets its template', () => {
      for (const service of docs.filter((d) => d.kind === 'Service')) {
        const pods = podsOf(docs).filter((p) => matches(service.spec.selector, p.spec.template.metadata.labels));
        expect({ service: service.metadata.name, pods: pods.length > 0 }).toEqual({ service: service.metadata.name, pods: true });
        for (const port of service.spec.ports) {
          for (const p of pods) {
            const names = p.spec.template.spec.containers.flatMap((c: Doc) => (c.ports ?? []).map((cp: Doc) => cp.name));
            expect({ service: service.metadata.name, pod: p.metadata.name, port: port.targetPort, found: names.includes(port.targetPort) }).toEqual(
              expect.objectContaining({ found: true }),
            );
          }
        }
      }
      for (const w of docs.filter((d) => d.kind === 'Deployment')) expect(matches(w.spec.selector.matchLabels, w.spec.template.metadata.labels)).toBe(true);
    });

    it('runs on the Node 22 image the Dockerfile builds, as a non-root user', () => {
      expect(fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8')).toMatch(/^FROM node:22-bookworm-slim AS build$/m);
      if (dir !== 'base') for (const p of podsOf(docs)) for (const c of p.spec.template.spec.containers) expect(c.image).not.toBe('listing-ads');
      for (const p of podsOf(docs)) expect(p.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    });
  });
});
