/**
 * For tests of components that fetch (jsdom has no fetch): the part of a fetch Response the store's base query
 * reads, with a JSON body. Fake servers answer with it.
 */
export function jsonReply(status: number, body: unknown) {
  return {
    ok: status < 400,
    status,
    statusText: String(status),
    headers: { get: (name: string) => (name.toLowerCase() === 'content-type' ? 'application/json' : null) },
    text: async () => JSON.stringify(body),
  };
}
