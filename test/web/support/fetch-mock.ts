/**
 * A stand-in for the server in component tests: every fetch goes to `handler`, and every call is
 * recorded. Client log posts are answered 204 unless the handler says otherwise.
 */
export interface RecordedCall {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  init: RequestInit | undefined;
}

export type FetchHandler = (call: RecordedCall) => Response | Promise<Response> | undefined;

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

export function emptyResponse(status = 204): Response {
  return new Response(null, { status });
}

const originalFetch = globalThis.fetch;

export function mockFetch(handler: FetchHandler): RecordedCall[] {
  const calls: RecordedCall[] = [];
  const fake = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const headers: Record<string, string> = {};
    for (const [key, value] of new Headers(init?.headers).entries()) headers[key.toLowerCase()] = value;
    const rawBody = typeof init?.body === "string" ? init.body : undefined;
    const call: RecordedCall = {
      method: init?.method ?? "GET",
      url,
      headers,
      body: rawBody === undefined ? undefined : JSON.parse(rawBody),
      init,
    };
    calls.push(call);
    const answer = await handler(call);
    if (answer) return answer;
    if (url.endsWith("/v1/client/log")) return emptyResponse();
    if (url.endsWith("/v1/ui-text")) return jsonResponse({});
    throw new Error(`Unexpected request in test: ${call.method} ${url}`);
  };
  globalThis.fetch = fake as typeof fetch;
  return calls;
}

export function restoreFetch(): void {
  globalThis.fetch = originalFetch;
}
