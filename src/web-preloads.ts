/**
 * Which bundle files each page of the app needs before it can show anything: every page but
 * /login loads the member area (web/pages/member-area.ts: the layout, the pages, the full text
 * catalogue, the live data's schemas), the admin page its own chunk too (router.tsx loads them on
 * demand), with everything they import. The server names them in that page's index.html as
 * modulepreload links, so a phone fetches them alongside the first script instead of after it.
 */
import { paths } from "../web/paths.ts";

/** The part of Bun's build metafile this reads. */
export interface BuildMetafile {
  outputs: Record<string, { inputs: Record<string, unknown>; imports: { path: string; kind: string }[]; entryPoint?: string }>;
}

export type RoutePreloads = Record<string, string[]>;

const MEMBER_AREA_INPUT = "web/pages/member-area.ts";

const toPath = (output: string) => `/${output.replace(/^\.?\//, "")}`;

export function computeRoutePreloads(metafile: BuildMetafile, entryChunk: string): RoutePreloads {
  const outputs = metafile.outputs;
  const isInput = (path: string | undefined, input: string) => path !== undefined && (path === input || path.endsWith(`/${input}`));
  const scripts = Object.keys(outputs).filter((key) => key.endsWith(".js"));
  // What a dynamic import loads is the module's entry chunk, which may only re-export another chunk.
  const outputOf = (input: string) =>
    scripts.find((key) => isInput(outputs[key].entryPoint, input)) ?? scripts.find((key) => Object.keys(outputs[key].inputs).some((i) => isInput(i, input)));
  const keyOf = (path: string) => Object.keys(outputs).find((key) => toPath(key) === toPath(path));

  /** A chunk and every chunk it imports statically. */
  function closure(start: string | undefined, into = new Set<string>()): Set<string> {
    const key = start ? keyOf(start) : undefined;
    if (!key || into.has(toPath(key))) return into;
    into.add(toPath(key));
    for (const imported of outputs[key].imports) if (imported.kind === "import-statement") closure(imported.path, into);
    return into;
  }

  const alreadyLoaded = closure(entryChunk);
  const result: RoutePreloads = {};
  for (const [name, route] of Object.entries(paths)) {
    const needed = closure(outputOf(`web/pages/${name}-page.tsx`));
    if (route !== paths.login) closure(outputOf(MEMBER_AREA_INPUT), needed);
    result[route] = [...needed].filter((file) => !alreadyLoaded.has(file)).sort();
  }
  return result;
}

/**
 * The session check every page starts with (web/lib/session-store.ts): fetched while the first
 * script downloads. Same URL, mode and credentials as the app's own call, so the browser hands it over.
 */
const SESSION_STATUS_PRELOAD = '<link rel="preload" as="fetch" crossorigin="anonymous" href="/v1/auth/status" />';

/** index.html with the session preload and a modulepreload link for each file, just before </head>. */
export function withPreloadLinks(html: string, files: readonly string[]): string {
  const links = files.map((file) => `<link rel="modulepreload" crossorigin href="${file}" />`).join("");
  return html.replace("</head>", `${SESSION_STATUS_PRELOAD}${links}</head>`);
}
