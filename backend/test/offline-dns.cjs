// Tests never ask the network's DNS. The save-time check of webhook, Zapier and CRM URLs (platform/outbound
// `resolvesToPublicAddresses`) resolves names with dns.promises.lookup, answered here from a fixed table:
// the documentation names (RFC 2606: example.com, .net, .org and their subdomains) and hooks.zapier.com resolve
// to a public address; localhost to loopback; `*.internal.test` to a private address; anything else fails as
// an unknown name. Connections themselves are nock's (HTTP) or a local receiver's (127.0.0.1) business.
const dns = require('node:dns');

const PUBLIC = '93.184.215.14';
function answer(hostname) {
  const name = String(hostname).toLowerCase().replace(/\.$/, '');
  if (require('node:net').isIP(name)) return [{ address: name, family: require('node:net').isIP(name) }];
  if (name === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
  if (/(^|\.)internal\.test$/.test(name)) return [{ address: '10.0.0.8', family: 4 }];
  if (/(^|\.)example\.(com|net|org)$/.test(name) || name === 'hooks.zapier.com') return [{ address: PUBLIC, family: 4 }];
  return null;
}

dns.promises.lookup = async function offlineLookup(hostname, options) {
  const found = answer(hostname);
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
  const all = typeof options === 'object' && options !== null && options.all;
  return all ? found : found[0];
};
