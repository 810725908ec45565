#!/usr/bin/env node
// The Kubernetes manifests (deploy/kubernetes): render a kustomization and validate what it makes against the
// Kubernetes schemas (kubernetes-models), with no cluster and no kustomize binary.
//
//   node scripts/kubernetes.mjs render deploy/kubernetes/overlays/production   # the YAML kubectl would apply
//   node scripts/kubernetes.mjs validate some.yaml                            # schema problems, exit 1 if any
//   node scripts/kubernetes.mjs check                                         # base and every overlay, as JSON
//
// The renderer does the part of kustomize these manifests use, the way kustomize does it: `resources` (files
// and kustomization folders), `namespace`, `images`, `replicas` and `patches` (RFC 6902 JSON patches with a
// kind/name target). Any other field of a kustomization is refused, so a manifest never relies on something
// this check would skip. `kubectl apply -k` (kustomize) renders the same folders in a cluster.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import jsonPatch from 'fast-json-patch';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SUPPORTED = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'images', 'replicas', 'patches']);
/** Kinds that live outside namespaces (kustomize's namespace leaves them alone). */
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'PriorityClass', 'StorageClass']);

function readDocs(file) {
  return YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'))
    .map((d) => {
      if (d.errors.length) throw new Error(`${file}: ${d.errors[0].message}`);
      return d.toJS();
    })
    .filter((d) => d !== null && d !== undefined);
}

/** The resources a kustomization folder makes. */
export function render(dir) {
  const file = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
  if (!file) throw new Error(`${dir}: no kustomization.yaml`);
  const k = YAML.parse(fs.readFileSync(file, 'utf8'));
  for (const key of Object.keys(k)) if (!SUPPORTED.has(key)) throw new Error(`${file}: "${key}" is not supported by scripts/kubernetes.mjs (supported: ${[...SUPPORTED].join(', ')})`);
  let docs = [];
  for (const entry of k.resources ?? []) {
    const target = path.resolve(dir, entry);
    docs.push(...(fs.statSync(target).isDirectory() ? render(target) : readDocs(target)));
  }
  for (const p of k.patches ?? []) {
    const { target, patch } = p;
    if (!target?.kind || !target?.name || typeof patch !== 'string') throw new Error(`${file}: a patch needs target.kind, target.name and an inline JSON 6902 patch`);
    const ops = YAML.parse(patch);
    if (!Array.isArray(ops)) throw new Error(`${file}: the patch of ${target.kind}/${target.name} is not a JSON 6902 list of operations`);
    const matches = docs.filter((d) => d.kind === target.kind && d.metadata?.name === target.name);
    if (matches.length === 0) throw new Error(`${file}: the patch target ${target.kind}/${target.name} matches no resource`);
    docs = docs.map((d) => (matches.includes(d) ? jsonPatch.applyPatch(structuredClone(d), ops, true, false).newDocument : d));
  }
  if (k.namespace) {
    for (const d of docs) {
      if (CLUSTER_SCOPED.has(d.kind)) continue;
      d.metadata = { ...d.metadata, namespace: k.namespace };
    }
  }
  for (const image of k.images ?? []) {
    for (const d of docs) {
      const pod = d.spec?.template?.spec;
      for (const c of [...(pod?.containers ?? []), ...(pod?.initContainers ?? [])]) {
        const [name, tag] = splitImage(c.image);
        if (name !== image.name) continue;
        c.image = `${image.newName ?? name}${image.digest ? `@${image.digest}` : image.newTag ? `:${image.newTag}` : tag ? `:${tag}` : ''}`;
      }
    }
  }
  for (const r of k.replicas ?? []) {
    const matches = docs.filter((d) => ['Deployment', 'StatefulSet', 'ReplicaSet'].includes(d.kind) && d.metadata?.name === r.name);
    if (matches.length === 0) throw new Error(`${file}: replicas for ${r.name} match no workload`);
    for (const d of matches) d.spec.replicas = r.count;
  }
  return docs;
}

function splitImage(image) {
  const at = image.indexOf('@');
  if (at >= 0) return [image.slice(0, at), null];
  const colon = image.lastIndexOf(':');
  return colon > image.lastIndexOf('/') ? [image.slice(0, colon), image.slice(colon + 1)] : [image, null];
}

/** The model class of a resource (kubernetes-models, and the prometheus-operator's for its kinds). */
async function modelOf(doc) {
  const { apiVersion, kind } = doc;
  if (!apiVersion || !kind) return null;
  const modules = apiVersion === 'v1' ? ['kubernetes-models/v1'] : apiVersion.startsWith('monitoring.coreos.com/') ? [`@kubernetes-models/prometheus-operator/${apiVersion}`] : [`kubernetes-models/${apiVersion}`];
  for (const m of modules) {
    try {
      const exported = await import(m);
      if (exported[kind]) return exported[kind];
    } catch {
      /* not this package */
    }
  }
  return null;
}

/** Schema problems of each resource ([] when all are valid). */
export async function validate(docs) {
  const problems = [];
  for (const doc of docs) {
    const where = `${doc.kind ?? '?'}/${doc.metadata?.name ?? '?'}`;
    const Model = await modelOf(doc);
    if (!Model) {
      problems.push(`${where}: no schema for ${doc.apiVersion} ${doc.kind}`);
      continue;
    }
    try {
      new Model(doc).validate();
    } catch (err) {
      problems.push(`${where}: ${err.message}`);
    }
  }
  return problems;
}

const KUBE = path.join(root, 'deploy', 'kubernetes');

async function main() {
  const [command, target] = process.argv.slice(2);
  if (command === 'render') {
    process.stdout.write(render(path.resolve(target)).map((d) => YAML.stringify(d)).join('---\n'));
  } else if (command === 'validate') {
    const problems = await validate(readDocs(path.resolve(target)));
    for (const p of problems) console.error(p);
    process.exitCode = problems.length ? 1 : 0;
    process.stdout.write(JSON.stringify({ problems }));
  } else if (command === 'check') {
    const dirs = [path.join(KUBE, 'base'), ...fs.readdirSync(path.join(KUBE, 'overlays')).map((o) => path.join(KUBE, 'overlays', o))];
    const out = {};
    for (const dir of dirs) {
      const docs = render(dir);
      out[path.relative(KUBE, dir)] = { docs, problems: await validate(docs) };
    }
    process.stdout.write(JSON.stringify(out));
  } else {
    console.error('usage: node scripts/kubernetes.mjs render <kustomization folder> | validate <file.yaml> | check');
    process.exitCode = 2;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
