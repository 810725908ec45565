#!/usr/bin/env node
// Renders the demo MLS photos (backend/assets/demo-mls/photos/*.jpg) from SVG illustrations with sharp.
// No network: every picture is drawn here. Deterministic (seeded), so running it again gives the same files.
//   node scripts/generate-demo-photos.mjs
// The demo dataset (backend/assets/demo-mls/Property.json) refers to these file names.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outDir = path.join(root, 'backend', 'assets', 'demo-mls', 'photos');
const W = 800;
const H = 600;

/** mulberry32: a small seeded PRNG. */
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    chance: (p) => next() < p,
  };
}

function shade(hex, amount) {
  const n = parseInt(hex.slice(1), 16);
  const f = (c) => Math.max(0, Math.min(255, Math.round(c + amount * (amount < 0 ? c : 255 - c))));
  const r = f((n >> 16) & 255);
  const g = f((n >> 8) & 255);
  const b = f(n & 255);
  return `#${((r << 16) | (g << 8) | b).toString(16).padStart(6, '0')}`;
}

const SKIES = [
  { top: '#4f8fdc', bottom: '#bfe0fb', sun: '#fff6c8', clouds: true },
  { top: '#2f6fc1', bottom: '#9fd0f5', sun: '#fffbe0', clouds: false },
  { top: '#f08a5d', bottom: '#fde2b5', sun: '#ffd27a', clouds: false }, // golden hour
  { top: '#7a8fa6', bottom: '#d6dde4', sun: null, clouds: true }, // overcast
  { top: '#5b4a9e', bottom: '#f7a78b', sun: '#ffe0a0', clouds: true }, // dusk
];
const WALLS = ['#f3ead8', '#e8d3b0', '#c9dbe8', '#f5f5f0', '#d9c2a7', '#b9c9b0', '#e9c8b4', '#d8d3ce', '#f2e2c4', '#a8b8c8', '#efe6da', '#c2a48a'];
const ROOFS = ['#6b4a3a', '#3f4650', '#8a3b2b', '#5a5f66', '#2f3338', '#a0522d', '#7b6a58'];
const TRIMS = ['#ffffff', '#f4f1ea', '#2f3338', '#5a4636'];
const DOORS = ['#8b2f2f', '#2f4f6f', '#3f5f3f', '#5a3a2a', '#1f2a36', '#b5651d'];

function skyAndGround(r, sky, { palms }) {
  let s = `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${sky.top}"/><stop offset="1" stop-color="${sky.bottom}"/></linearGradient>
  <linearGradient id="lawn" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#6fa35a"/><stop offset="1" stop-color="#4d7f3e"/></linearGradient></defs>`;
  s += `<rect width="${W}" height="${H}" fill="url(#sky)"/>`;
  if (sky.sun) s += `<circle cx="${r.int(80, 720)}" cy="${r.int(60, 140)}" r="${r.int(28, 44)}" fill="${sky.sun}" opacity="0.9"/>`;
  if (sky.clouds) {
    for (let i = 0; i < r.int(2, 4); i++) {
      const cx = r.int(40, 760);
      const cy = r.int(40, 170);
      s += `<g fill="#ffffff" opacity="0.85"><ellipse cx="${cx}" cy="${cy}" rx="${r.int(40, 70)}" ry="${r.int(14, 22)}"/><ellipse cx="${cx + 30}" cy="${cy - 10}" rx="${r.int(28, 44)}" ry="${r.int(14, 20)}"/></g>`;
    }
  }
  // distant hills
  s += `<path d="M0 400 Q ${r.int(100, 250)} ${r.int(330, 370)} 400 390 T 800 ${r.int(370, 395)} V 430 H 0 Z" fill="#8fb38a" opacity="0.7"/>`;
  s += `<rect y="420" width="${W}" height="180" fill="url(#lawn)"/>`;
  if (palms) s += palm(r.int(30, 90), 430, r) + palm(r.int(700, 770), 440, r);
  else s += tree(r.int(40, 100), 440, r) + tree(r.int(690, 760), 445, r);
  return s;
}

function palm(x, baseY, r) {
  const h = r.int(170, 230);
  const topX = x + r.int(-15, 15);
  const topY = baseY - h;
  let fronds = '';
  for (let i = 0; i < 7; i++) {
    const a = (i / 7) * Math.PI * 2;
    const ex = topX + Math.cos(a) * 70;
    const ey = topY + Math.sin(a) * 30 + 25;
    fronds += `<path d="M${topX} ${topY} Q ${(topX + ex) / 2} ${topY - 25} ${ex} ${ey}" stroke="#2e6b34" stroke-width="9" fill="none" stroke-linecap="round"/>`;
  }
  return `<path d="M${x} ${baseY} Q ${x + 10} ${baseY - h / 2} ${topX} ${topY}" stroke="#8b6b47" stroke-width="10" fill="none"/>${fronds}`;
}

function tree(x, baseY, r) {
  const g = r.pick(['#3f7a3a', '#4b8b45', '#356b33', '#5c8f3e']);
  return `<rect x="${x - 6}" y="${baseY - 70}" width="12" height="70" fill="#6b4a2f"/><circle cx="${x}" cy="${baseY - 100}" r="${r.int(40, 55)}" fill="${g}"/><circle cx="${x - 25}" cy="${baseY - 80}" r="${r.int(25, 35)}" fill="${shade(g, -0.15)}"/><circle cx="${x + 25}" cy="${baseY - 85}" r="${r.int(25, 35)}" fill="${shade(g, 0.1)}"/>`;
}

function windowRect(x, y, w, h, trim, { arched = false, glass = '#9cc7e6' } = {}) {
  const top = arched ? `<path d="M${x} ${y + w / 2} A ${w / 2} ${w / 2} 0 0 1 ${x + w} ${y + w / 2} Z" fill="${glass}" stroke="${trim}" stroke-width="4"/>` : '';
  const yy = arched ? y + w / 2 : y;
  const hh = arched ? h - w / 2 : h;
  return `${top}<rect x="${x}" y="${yy}" width="${w}" height="${hh}" fill="${glass}" stroke="${trim}" stroke-width="4"/>
  <line x1="${x + w / 2}" y1="${yy}" x2="${x + w / 2}" y2="${yy + hh}" stroke="${trim}" stroke-width="3"/>
  <line x1="${x}" y1="${yy + hh / 2}" x2="${x + w}" y2="${yy + hh / 2}" stroke="${trim}" stroke-width="3"/>
  <path d="M${x + 4} ${yy + 4} L ${x + w / 2 - 4} ${yy + 4} L ${x + 4} ${yy + hh / 2 - 4} Z" fill="#ffffff" opacity="0.35"/>`;
}

function house(r, style) {
  const wall = r.pick(WALLS);
  const roof = r.pick(ROOFS);
  const trim = r.pick(TRIMS);
  const door = r.pick(DOORS);
  const ground = 470;
  let s = '';
  if (style === 'ranch' || style === 'mediterranean' || style === 'bungalow') {
    const x = r.int(150, 190);
    const w = r.int(440, 480);
    const h = style === 'bungalow' ? 130 : 120;
    const y = ground - h;
    const roofColor = style === 'mediterranean' ? r.pick(['#b5562f', '#c0673a', '#a4492a']) : roof;
    s += `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${wall}"/>`;
    if (style === 'mediterranean') {
      s += `<path d="M${x - 20} ${y} L ${x + w / 2} ${y - 70} L ${x + w + 20} ${y} Z" fill="${roofColor}"/>`;
      for (let i = 0; i < 12; i++) s += `<line x1="${x - 10 + i * ((w + 20) / 12)}" y1="${y - 2}" x2="${x + w / 2}" y2="${y - 68}" stroke="${shade(roofColor, -0.2)}" stroke-width="2" opacity="0.5"/>`;
    } else if (style === 'bungalow') {
      s += `<path d="M${x - 30} ${y + 10} L ${x + w / 2} ${y - 90} L ${x + w + 30} ${y + 10} Z" fill="${roof}"/>`;
      s += `<rect x="${x + w / 2 - 60}" y="${y + 20}" width="120" height="${h - 20}" fill="${shade(wall, -0.08)}"/>`;
      s += `<rect x="${x + w / 2 - 70}" y="${y + 10}" width="140" height="12" fill="${trim}"/>`;
      s += `<rect x="${x + w / 2 - 64}" y="${y + 22}" width="10" height="${h - 22}" fill="${trim}"/><rect x="${x + w / 2 + 54}" y="${y + 22}" width="10" height="${h - 22}" fill="${trim}"/>`;
    } else {
      s += `<path d="M${x - 25} ${y + 5} L ${x + 60} ${y - 60} L ${x + w - 60} ${y - 60} L ${x + w + 25} ${y + 5} Z" fill="${roof}"/>`;
    }
    // garage
    const gx = x + w - 150;
    s += `<rect x="${gx}" y="${ground - 90}" width="130" height="90" fill="${shade(trim, -0.05)}" stroke="${shade(wall, -0.3)}" stroke-width="3"/>`;
    for (let i = 1; i < 5; i++) s += `<line x1="${gx}" y1="${ground - 90 + i * 18}" x2="${gx + 130}" y2="${ground - 90 + i * 18}" stroke="${shade(wall, -0.25)}" stroke-width="2"/>`;
    s += `<path d="M${gx + 40} ${ground} L ${gx - 20} ${H} L ${gx + 200} ${H} L ${gx + 110} ${ground} Z" fill="#b8b2a7"/>`;
    // door + windows
    const dx = x + w / 2 - 20;
    s += `<rect x="${dx}" y="${ground - 80}" width="42" height="80" fill="${door}"/><circle cx="${dx + 34}" cy="${ground - 40}" r="3" fill="#e8c36a"/>`;
    s += windowRect(x + 30, y + 30, 70, 55, trim, { arched: style === 'mediterranean' });
    s += windowRect(x + 120, y + 30, 70, 55, trim, { arched: style === 'mediterranean' });
    s += `<path d="M${dx - 10} ${ground} L ${dx - 40} ${H} L ${dx + 80} ${H} L ${dx + 52} ${ground} Z" fill="#cfc7b8"/>`;
  } else if (style === 'two-story' || style === 'colonial') {
    const x = r.int(190, 230);
    const w = r.int(340, 380);
    const h = 220;
    const y = ground - h;
    s += `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${wall}"/>`;
    s += `<path d="M${x - 25} ${y + 5} L ${x + w / 2} ${y - 90} L ${x + w + 25} ${y + 5} Z" fill="${roof}"/>`;
    if (style === 'colonial') s += `<rect x="${x + w - 70}" y="${y - 70}" width="30" height="60" fill="#8a5a44"/>`;
    const cols = 3;
    const ww = 62;
    const gap = (w - cols * ww) / (cols + 1);
    for (let row = 0; row < 2; row++) {
      for (let c = 0; c < cols; c++) {
        if (row === 1 && c === 1) continue;
        const wx = x + gap + c * (ww + gap);
        const wy = y + 25 + row * 105;
        s += windowRect(wx, wy, ww, 70, trim);
        if (style === 'colonial') s += `<rect x="${wx - 16}" y="${wy}" width="12" height="70" fill="${door}" opacity="0.85"/><rect x="${wx + ww + 4}" y="${wy}" width="12" height="70" fill="${door}" opacity="0.85"/>`;
      }
    }
    const dx = x + w / 2 - 24;
    s += `<rect x="${dx - 14}" y="${ground - 104}" width="76" height="10" fill="${trim}"/><rect x="${dx}" y="${ground - 92}" width="48" height="92" fill="${door}"/><circle cx="${dx + 40}" cy="${ground - 46}" r="3" fill="#e8c36a"/>`;
    s += `<path d="M${dx - 6} ${ground} L ${dx - 50} ${H} L ${dx + 100} ${H} L ${dx + 54} ${ground} Z" fill="#cfc7b8"/>`;
    // attached garage wing
    s += `<rect x="${x + w}" y="${ground - 110}" width="150" height="110" fill="${shade(wall, -0.06)}"/><path d="M${x + w} ${ground - 110} L ${x + w + 75} ${ground - 160} L ${x + w + 160} ${ground - 108} Z" fill="${shade(roof, 0.1)}"/>`;
    s += `<rect x="${x + w + 15}" y="${ground - 85}" width="120" height="85" fill="${shade(trim, -0.05)}" stroke="${shade(wall, -0.3)}" stroke-width="3"/>`;
  } else if (style === 'modern') {
    const x = r.int(140, 180);
    const w = 480;
    const y = ground - 230;
    const accent = r.pick(['#6b5b4b', '#3d4650', '#a58a6b', '#2c2c2c']);
    s += `<rect x="${x}" y="${ground - 120}" width="${w}" height="120" fill="${wall}"/>`;
    s += `<rect x="${x + 120}" y="${y}" width="${w - 120}" height="120" fill="${shade(wall, -0.05)}"/>`;
    s += `<rect x="${x + 100}" y="${y - 12}" width="${w - 80}" height="14" fill="${accent}"/><rect x="${x - 20}" y="${ground - 132}" width="${w + 40}" height="14" fill="${accent}"/>`;
    s += `<rect x="${x + 150}" y="${y + 20}" width="220" height="80" fill="#8fb9d6" stroke="${accent}" stroke-width="5"/><line x1="${x + 260}" y1="${y + 20}" x2="${x + 260}" y2="${y + 100}" stroke="${accent}" stroke-width="4"/>`;
    s += `<rect x="${x + 20}" y="${ground - 100}" width="200" height="100" fill="#8fb9d6" stroke="${accent}" stroke-width="5"/><line x1="${x + 120}" y1="${ground - 100}" x2="${x + 120}" y2="${ground}" stroke="${accent}" stroke-width="4"/>`;
    s += `<rect x="${x + 250}" y="${ground - 95}" width="50" height="95" fill="${accent}"/>`;
    s += `<rect x="${x + 320}" y="${ground - 90}" width="140" height="90" fill="${shade(accent, 0.3)}"/>`;
    for (let i = 0; i < 8; i++) s += `<rect x="${x + 20 + i * 22}" y="${ground - 100}" width="2" height="100" fill="#ffffff" opacity="0.25"/>`;
    s += `<path d="M${x + 320} ${ground} L ${x + 290} ${H} L ${x + 500} ${H} L ${x + 460} ${ground} Z" fill="#d9d4cb"/>`;
  } else if (style === 'condo') {
    const x = 120;
    const w = 560;
    const floors = r.int(3, 5);
    const fh = 70;
    const y = ground - floors * fh;
    s += `<rect x="${x}" y="${y}" width="${w}" height="${floors * fh}" fill="${wall}"/><rect x="${x - 10}" y="${y - 14}" width="${w + 20}" height="16" fill="${shade(wall, -0.3)}"/>`;
    for (let f = 0; f < floors; f++) {
      for (let c = 0; c < 6; c++) {
        const wx = x + 22 + c * 90;
        const wy = y + 12 + f * fh;
        s += `<rect x="${wx}" y="${wy}" width="62" height="44" fill="#9cc7e6" stroke="${trim}" stroke-width="3"/>`;
        if (f > 0 && c % 2 === 0) s += `<rect x="${wx - 6}" y="${wy + 40}" width="74" height="8" fill="${shade(wall, -0.35)}"/><line x1="${wx - 6}" y1="${wy + 30}" x2="${wx + 68}" y2="${wy + 30}" stroke="${shade(wall, -0.35)}" stroke-width="2"/>`;
      }
    }
    s += `<rect x="${x + w / 2 - 40}" y="${ground - 60}" width="80" height="60" fill="#6d8fa8" stroke="${trim}" stroke-width="4"/>`;
    s += `<rect x="${x + w / 2 - 70}" y="${ground - 72}" width="140" height="12" fill="${shade(wall, -0.4)}"/>`;
  }
  // shrubs along the front
  for (let i = 0; i < r.int(4, 8); i++) {
    const bx = r.int(140, 660);
    s += `<ellipse cx="${bx}" cy="${ground + 4}" rx="${r.int(18, 30)}" ry="${r.int(12, 18)}" fill="${r.pick(['#3f7a3a', '#52904a', '#2f6a34'])}"/>`;
    if (r.chance(0.3)) s += `<circle cx="${bx}" cy="${ground - 4}" r="4" fill="${r.pick(['#e85d75', '#f3c623', '#ffffff', '#c86bd6'])}"/>`;
  }
  return s;
}

function exterior(seed, style, palms) {
  const r = rng(seed);
  const sky = r.pick(SKIES);
  return svg(skyAndGround(r, sky, { palms }) + house(r, style));
}

function backyard(seed, palms) {
  const r = rng(seed);
  const sky = r.pick(SKIES.slice(0, 3));
  let s = skyAndGround(r, sky, { palms });
  const wall = r.pick(WALLS);
  s += `<rect x="0" y="250" width="${W}" height="190" fill="${wall}"/><rect x="0" y="236" width="${W}" height="16" fill="${r.pick(ROOFS)}"/>`;
  s += `<rect x="120" y="290" width="240" height="150" fill="#8fb9d6" stroke="#ffffff" stroke-width="6"/><line x1="240" y1="290" x2="240" y2="440" stroke="#ffffff" stroke-width="5"/>`;
  s += `<rect x="480" y="300" width="120" height="80" fill="#9cc7e6" stroke="#ffffff" stroke-width="5"/>`;
  s += `<rect y="440" width="${W}" height="160" fill="#d9cdb8"/>`;
  if (r.chance(0.75)) {
    s += `<defs><linearGradient id="pool" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#5cc6e8"/><stop offset="1" stop-color="#1f8fc0"/></linearGradient></defs>`;
    s += `<rect x="${r.int(150, 230)}" y="470" width="${r.int(380, 440)}" height="100" rx="14" fill="url(#pool)" stroke="#f4f1ea" stroke-width="10"/>`;
    for (let i = 0; i < 6; i++) s += `<path d="M${220 + i * 60} ${500 + (i % 2) * 25} q 15 -8 30 0" stroke="#ffffff" stroke-width="3" fill="none" opacity="0.6"/>`;
  } else {
    s += `<rect x="140" y="470" width="520" height="110" fill="#a0764f"/>`;
    for (let i = 0; i < 12; i++) s += `<line x1="140" y1="${478 + i * 9}" x2="660" y2="${478 + i * 9}" stroke="#7f5a39" stroke-width="2"/>`;
  }
  // loungers / table
  s += `<rect x="40" y="520" width="90" height="16" rx="4" fill="#ffffff"/><rect x="40" y="500" width="30" height="24" rx="4" fill="#ffffff"/>`;
  s += `<circle cx="710" cy="520" r="34" fill="#f4f1ea"/><path d="M670 460 L 710 430 L 750 460 Z" fill="${r.pick(['#e85d4a', '#2f6f9f', '#f3c623'])}"/><line x1="710" y1="460" x2="710" y2="520" stroke="#555" stroke-width="3"/>`;
  return svg(s);
}

function room(seed, kind) {
  const r = rng(seed);
  const wall = r.pick(['#efe9df', '#e6e1d6', '#dfe7ea', '#f2ece4', '#e9e4ef', '#e4ebe0', '#f4efe6']);
  const floor = r.pick(['#b08358', '#c49a6c', '#8e6b4f', '#d8cbb8', '#a9a39a']);
  const accent = r.pick(['#2f6f9f', '#b5562f', '#4f7f5a', '#8b3a62', '#c9a227', '#3d4650']);
  let s = `<rect width="${W}" height="${H}" fill="${wall}"/><rect y="430" width="${W}" height="170" fill="${floor}"/>`;
  for (let i = 0; i < 9; i++) s += `<line x1="${i * 100}" y1="430" x2="${i * 100 - 140}" y2="600" stroke="${shade(floor, -0.15)}" stroke-width="2"/>`;
  s += `<rect y="422" width="${W}" height="10" fill="${shade(wall, -0.15)}"/>`;
  const win = (x, y, w, h) => `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#bfe0fb" stroke="#ffffff" stroke-width="8"/><rect x="${x}" y="${y + h * 0.55}" width="${w}" height="${h * 0.45}" fill="#8fc38a" opacity="0.7"/><line x1="${x + w / 2}" y1="${y}" x2="${x + w / 2}" y2="${y + h}" stroke="#ffffff" stroke-width="6"/>`;
  if (kind === 'living') {
    s += win(r.int(60, 120), 110, 220, 200);
    s += `<rect x="${r.int(480, 540)}" y="130" width="150" height="100" fill="${shade(accent, 0.4)}" stroke="#3b3b3b" stroke-width="6"/>`;
    s += `<ellipse cx="400" cy="540" rx="300" ry="40" fill="${shade(accent, 0.55)}"/>`;
    const sofa = r.pick(['#7b8794', '#c9b79c', '#5b6b7b', '#8a9a7b', '#b07a5a']);
    s += `<rect x="250" y="360" width="340" height="110" rx="18" fill="${sofa}"/><rect x="230" y="390" width="50" height="90" rx="14" fill="${shade(sofa, -0.1)}"/><rect x="560" y="390" width="50" height="90" rx="14" fill="${shade(sofa, -0.1)}"/>`;
    s += `<rect x="290" y="395" width="70" height="45" rx="10" fill="${accent}"/><rect x="480" y="395" width="70" height="45" rx="10" fill="${shade(accent, 0.3)}"/>`;
    s += `<rect x="330" y="500" width="180" height="20" rx="6" fill="#5a4636"/>`;
    s += `<line x1="700" y1="260" x2="700" y2="470" stroke="#333" stroke-width="5"/><path d="M670 260 L 730 260 L 715 215 L 685 215 Z" fill="#f4e3b0"/>`;
    s += `<rect x="40" y="360" width="40" height="70" fill="#6b4a2f"/><circle cx="60" cy="330" r="42" fill="#4f8a45"/>`;
  } else if (kind === 'kitchen') {
    const cab = r.pick(['#ffffff', '#2f4f6f', '#5a6b5a', '#d9cdb8', '#3d3d3d']);
    const counter = r.pick(['#e8e6e1', '#2b2b2b', '#cfc6b8']);
    s += win(300, 90, 200, 140);
    for (let i = 0; i < 3; i++) s += `<rect x="${40 + i * 85}" y="80" width="80" height="140" fill="${cab}" stroke="${shade(cab, -0.2)}" stroke-width="3"/>`;
    for (let i = 0; i < 3; i++) s += `<rect x="${520 + i * 85}" y="80" width="80" height="140" fill="${cab}" stroke="${shade(cab, -0.2)}" stroke-width="3"/>`;
    s += `<rect x="0" y="300" width="${W}" height="20" fill="${counter}"/><rect x="0" y="320" width="${W}" height="110" fill="${cab}"/>`;
    for (let i = 0; i < 9; i++) s += `<rect x="${10 + i * 88}" y="330" width="80" height="90" fill="none" stroke="${shade(cab, -0.2)}" stroke-width="3"/>`;
    s += `<rect x="0" y="230" width="${W}" height="70" fill="${r.pick(['#dfe7ea', '#f4f1ea', '#e3ddd2'])}"/>`;
    for (let i = 0; i < 16; i++) s += `<line x1="${i * 50}" y1="230" x2="${i * 50}" y2="300" stroke="#c9c3b8" stroke-width="1"/>`;
    s += `<rect x="180" y="420" width="440" height="30" fill="${counter}"/><rect x="200" y="450" width="400" height="110" fill="${shade(cab, -0.08)}"/>`;
    for (let i = 0; i < 3; i++) s += `<line x1="${280 + i * 120}" y1="20" x2="${280 + i * 120}" y2="${r.int(150, 190)}" stroke="#333" stroke-width="2"/><path d="M${262 + i * 120} ${190} L ${298 + i * 120} 190 L ${290 + i * 120} 170 L ${270 + i * 120} 170 Z" fill="${accent}"/>`;
    s += `<rect x="250" y="560" width="30" height="40" fill="#5a4636"/><rect x="520" y="560" width="30" height="40" fill="#5a4636"/>`;
  } else if (kind === 'bedroom') {
    s += win(r.int(520, 580), 110, 180, 170);
    s += `<rect x="120" y="200" width="340" height="140" rx="10" fill="${r.pick(['#6b4a2f', '#d9cdb8', '#3d4650', '#8a7a6a'])}"/>`;
    const sheet = r.pick(['#ffffff', '#e9eef2', '#f4efe6']);
    s += `<rect x="100" y="320" width="380" height="150" rx="12" fill="${sheet}"/><rect x="100" y="380" width="380" height="90" rx="10" fill="${accent}" opacity="0.85"/>`;
    s += `<rect x="140" y="290" width="120" height="50" rx="14" fill="#ffffff" stroke="#ddd" stroke-width="2"/><rect x="320" y="290" width="120" height="50" rx="14" fill="#ffffff" stroke="#ddd" stroke-width="2"/>`;
    s += `<rect x="30" y="360" width="60" height="70" fill="#6b4a2f"/><rect x="490" y="360" width="60" height="70" fill="#6b4a2f"/>`;
    s += `<path d="M45 360 L 75 360 L 68 320 L 52 320 Z" fill="#f4e3b0"/><path d="M505 360 L 535 360 L 528 320 L 512 320 Z" fill="#f4e3b0"/>`;
    s += `<ellipse cx="300" cy="540" rx="250" ry="40" fill="${shade(accent, 0.6)}"/>`;
  } else if (kind === 'bath') {
    const tile = r.pick(['#e9eef2', '#f4f1ea', '#dfe7ea', '#e6e1d6']);
    s += `<rect y="0" width="${W}" height="430" fill="${tile}"/>`;
    for (let i = 0; i < 17; i++) s += `<line x1="${i * 50}" y1="0" x2="${i * 50}" y2="430" stroke="${shade(tile, -0.08)}" stroke-width="1"/>`;
    for (let j = 0; j < 9; j++) s += `<line x1="0" y1="${j * 50}" x2="${W}" y2="${j * 50}" stroke="${shade(tile, -0.08)}" stroke-width="1"/>`;
    s += `<rect x="60" y="330" width="360" height="120" rx="40" fill="#ffffff" stroke="#d5d5d5" stroke-width="3"/><rect x="90" y="345" width="300" height="40" rx="18" fill="#bfe0f0"/>`;
    s += `<rect x="500" y="320" width="240" height="130" fill="${r.pick(['#6b4a2f', '#ffffff', '#3d4650', '#8a9a7b'])}"/><rect x="490" y="305" width="260" height="18" fill="#e8e6e1"/><ellipse cx="620" cy="312" rx="50" ry="8" fill="#ffffff" stroke="#ccc"/>`;
    s += `<rect x="540" y="110" width="160" height="180" rx="10" fill="#dbe9f1" stroke="#b0b0b0" stroke-width="5"/><path d="M560 130 L 620 130 L 560 200 Z" fill="#ffffff" opacity="0.5"/>`;
    s += `<rect x="230" y="200" width="12" height="130" fill="#b0b0b0"/><circle cx="236" cy="195" r="14" fill="#b0b0b0"/>`;
    s += `<rect x="${r.int(20, 60)}" y="120" width="70" height="110" fill="${accent}" opacity="0.8"/>`;
  }
  return svg(s);
}

function svg(body) {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">${body}</svg>`;
}

// What to draw. Exteriors cycle through the styles; palms for the sun-belt look of every other file.
const STYLES = ['ranch', 'two-story', 'mediterranean', 'modern', 'bungalow', 'colonial', 'condo'];
const jobs = [];
for (let i = 1; i <= 36; i++) {
  const style = STYLES[(i - 1) % STYLES.length];
  jobs.push({ file: `exterior-${String(i).padStart(2, '0')}.jpg`, svg: exterior(1000 + i * 17, style, i % 2 === 1) });
}
for (let i = 1; i <= 8; i++) jobs.push({ file: `backyard-${String(i).padStart(2, '0')}.jpg`, svg: backyard(5000 + i * 31, i % 2 === 1) });
for (const [kind, count] of [['living', 8], ['kitchen', 8], ['bedroom', 8], ['bath', 6]]) {
  for (let i = 1; i <= count; i++) jobs.push({ file: `${kind}-${String(i).padStart(2, '0')}.jpg`, svg: room(9000 + i * 53 + kind.length * 7, kind) });
}

fs.mkdirSync(outDir, { recursive: true });
for (const f of fs.readdirSync(outDir)) if (f.endsWith('.jpg')) fs.rmSync(path.join(outDir, f));
let total = 0;
for (const job of jobs) {
  const buf = await sharp(Buffer.from(job.svg)).jpeg({ quality: 70, mozjpeg: true }).toBuffer();
  fs.writeFileSync(path.join(outDir, job.file), buf);
  total += buf.length;
}
console.log(`${jobs.length} photos, ${(total / 1024 / 1024).toFixed(2)} MB in ${path.relative(root, outDir)}`);
