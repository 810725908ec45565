// Jest stand-in for CSS imports: a CSS module's class name is its key (styles.primary === 'primary').
module.exports = new Proxy({}, { get: (_, key) => (key === '__esModule' ? false : String(key)) });
