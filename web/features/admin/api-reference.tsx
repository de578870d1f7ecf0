/**
 * The API tab: every route Teebox serves, grouped, with who may call it, what it takes and each
 * answer it gives, read from the OpenAPI document (/v1/openapi.json, decision 170). Plain lists
 * and disclosure elements: a route opens to show its shapes.
 */
import { useEffect, useState } from "react";
import type { UiTextKey } from "../../../src/domain/ui-text/index.ts";
import { apiPaths } from "../../lib/api-paths.ts";
import { useText } from "../../lib/text.ts";
import { adminApi } from "./admin-api.ts";
import { ErrorLine, failureText } from "./admin-ui.tsx";
import { groupRoutes, type RouteEntry, type RouteGroupEntry, type RoutePart } from "./api-reference-model.ts";

const ACCESS_KEYS: Record<string, UiTextKey> = {
  public: "admin.api.access.public",
  member: "admin.api.access.member",
  admin: "admin.api.access.admin",
};

function Parts({ parts, emptyText }: { parts: RoutePart[]; emptyText: string }) {
  const t = useText();
  if (parts.length === 0) return <p className="api-ref__muted">{emptyText}</p>;
  return (
    <dl>
      {parts.map((part) => (
        <div key={part.label}>
          <dt>
            <code>{part.label}</code>
            {part.description ? <span className="api-ref__muted"> {part.description}</span> : null}
          </dt>
          <dd>{part.shape ? <code>{part.shape}</code> : <span className="api-ref__muted">{t("admin.api.no_body")}</span>}</dd>
        </div>
      ))}
    </dl>
  );
}

function Route({ route }: { route: RouteEntry }) {
  const t = useText();
  const access = ACCESS_KEYS[route.access];
  return (
    <li data-testid="api-route">
      <details>
        <summary>
          <strong>{route.method}</strong> <code>{route.path}</code>
          <br />
          <span className="api-ref__muted">
            {route.summary}
            {access ? ` (${t(access)})` : null}
          </span>
        </summary>
        <h5>{t("admin.api.takes")}</h5>
        <Parts parts={route.takes} emptyText={t("admin.api.takes_nothing")} />
        <h5>{t("admin.api.answers")}</h5>
        <Parts parts={route.answers} emptyText="" />
      </details>
    </li>
  );
}

export function ApiReferenceTab() {
  const t = useText();
  const [groups, setGroups] = useState<RouteGroupEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let isActive = true;
    adminApi.apiDocument().then(
      (document) => isActive && setGroups(groupRoutes(document)),
      (failure: unknown) => isActive && setError(failureText(t, "admin.api.load_failed", failure)),
    );
    return () => {
      isActive = false;
    };
  }, [t]);

  return (
    <section aria-labelledby="api-ref-title">
      <h2 id="api-ref-title">{t("admin.api.title")}</h2>
      <p className="page__note">
        {t("admin.api.intro")} <a href={apiPaths.admin.openapi}>{t("admin.api.document")}</a>
      </p>
      <ErrorLine text={error} />
      {groups?.map((group) => (
        <section key={group.name} aria-label={group.name || t("admin.api.group_other")}>
          <h3>
            {group.name || t("admin.api.group_other")} <span className="api-ref__muted">{t("admin.api.count", { count: group.routes.length })}</span>
          </h3>
          <ul className="api-ref__routes">
            {group.routes.map((route) => (
              <Route key={`${route.method} ${route.path}`} route={route} />
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
