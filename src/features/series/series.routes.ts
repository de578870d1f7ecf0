import { routeGroup } from "../../lib/contract.ts";
import { currentUser } from "../../lib/middleware.ts";
import { seriesRoutes } from "./series.contract.ts";
import { listSeries } from "./series-view.ts";
import { changeOccurrence, changeSeries, createSeries, endSeriesOf, skipOccurrence, type SeriesDeps } from "./series.service.ts";

/** The member's standing requests (/v1/my/series). */
export function createSeriesRoutes(deps: SeriesDeps) {
  return routeGroup()
    .handle(seriesRoutes.list, async (c) => {
      c.header("cache-control", "no-store");
      return c.json(await listSeries(deps.database.db, currentUser(c).id, deps.clock.now()), 200);
    })
    .handle(seriesRoutes.create, async (c) => {
      return c.json({ series: await createSeries(deps, currentUser(c), c.req.valid("json")) }, 201);
    })
    .handle(seriesRoutes.change, async (c) => {
      return c.json({ series: await changeSeries(deps, currentUser(c), c.req.valid("param").id, c.req.valid("json")) }, 200);
    })
    .handle(seriesRoutes.end, async (c) => {
      await endSeriesOf(deps, currentUser(c).id, c.req.valid("param").id);
      return c.body(null, 204);
    })
    .handle(seriesRoutes.skip, async (c) => {
      const { id, date } = c.req.valid("param");
      await skipOccurrence(deps, currentUser(c).id, id, date);
      return c.body(null, 204);
    })
    .handle(seriesRoutes.changeDate, async (c) => {
      const { id, date } = c.req.valid("param");
      await changeOccurrence(deps, currentUser(c).id, id, date, c.req.valid("json").times);
      return c.body(null, 204);
    });
}
