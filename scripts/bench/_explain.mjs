import { spawn } from 'node:child_process';
import pg from 'pg';
import { tempDir, waitFor } from './lib.mjs';
const dataDir = tempDir('la-probe-');
const child = spawn(process.execPath, ['backend/dist/server.js'], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NODE_ENV: 'production', PORT: '3314', HOST: '127.0.0.1', DATA_DIR: dataDir, EMBEDDED_PG_PORT: '54414', LOG_LEVEL: 'warn' } });
const base = 'http://127.0.0.1:3314';
await waitFor(`${base}/api/ready`);
let cookie='';
const call = async (m,p,b)=>{const r=await fetch(base+p,{method:m,headers:{'content-type':'application/json',...(cookie?{cookie}:{})},body:b?JSON.stringify(b):undefined}); const s=r.headers.getSetCookie().map(c=>c.split(';')[0]).join('; '); if(s) cookie=s; return r.json();};
const a = await call('POST','/api/agents',{name:'A B',state:'FL',manualEntry:true});
for (let i=0;i<12;i++) await call('POST','/api/listings',{agentId:a.id,address:`${i} X St`,city:'Tampa',state:'FL',price:'300000',bedrooms:2,bathrooms:'1.0',squareFeet:900,status:'active',imageUrl:null,images:[]});
const fs = await import('node:fs'); const pw = JSON.parse(fs.readFileSync(dataDir + '/pg-credentials.json','utf8')).password; const c = new pg.Client({ connectionString: `postgres://postgres:${encodeURIComponent(pw)}@127.0.0.1:54414/listing_ads` });
await c.connect();
const stat = async () => Number((await c.query(`select xact_commit from pg_stat_database where datname='listing_ads'`)).rows[0].xact_commit);
const autocannon = (await import('autocannon')).default;
const q = `explain (analyze, buffers) select "id", "agent_id", "mls_id", "address", "city", "state", "postal_code", "price_cents", "bedrooms", "bathrooms", "square_feet", "status", "image_url", "images", "description", case when status = 'active' then 0 else 1 end || '.' || to_char(coalesce(sold_date, list_date, created_at::date), 'YYYY-MM-DD') || '.' || id as position from "listings" where "agent_id" = 1 and "agent_id" in (select "id" from "agents" where ("id" = -1 or ("id" in (1) and "password_hash" is null))) order by case when status = 'active' then 0 else 1 end, coalesce(sold_date, list_date, created_at::date) desc, id desc limit 101`;

const cols = `"id", "agent_id", "mls_id", "address", "city", "state", "postal_code", "price_cents", "bedrooms", "bathrooms", "square_feet", "status", "image_url", "images", "description"`;
const V = {
  old: `select * from listings where agent_id = 1 order by case when status = 'active' then 0 else 1 end, coalesce(sold_date, list_date, created_at::date) desc, id desc`,
  oldAgent: `select * from agents where id = 1`,
  mine: q.replace('explain (analyze, buffers) ', ''),
  noSub: `select ${cols}, case when status = 'active' then 0 else 1 end || '.' || to_char(coalesce(sold_date, list_date, created_at::date), 'YYYY-MM-DD') || '.' || id as position from listings where agent_id = 1 order by case when status = 'active' then 0 else 1 end, coalesce(sold_date, list_date, created_at::date) desc, id desc limit 101`,
  existsSimple: `select ${cols} from listings where agent_id = 1 and exists (select 1 from agents where agents.id = 1 and (agents.id = -1 or agents.password_hash is null)) order by case when status = 'active' then 0 else 1 end, coalesce(sold_date, list_date, created_at::date) desc, id desc limit 101`,
};
for (const [k, sql] of Object.entries(V)) {
  let out;
  for (let i = 0; i < 5; i++) out = (await c.query('explain (analyze, summary) ' + sql)).rows.map(r=>r['QUERY PLAN']).filter(l => /Time/.test(l)).join(' | ');
  const t0 = performance.now(); for (let i = 0; i < 200; i++) await c.query(sql); const ms = (performance.now() - t0) / 200;
  console.log(k.padEnd(14), out, '| round trip', ms.toFixed(2), 'ms');
}

await c.end();
child.kill('SIGINT');
await new Promise((r) => child.once('exit', r));
