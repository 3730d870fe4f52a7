import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ViewsApi, savedViewListSchema, savedViewSchema, viewBodySchema, viewDefaultSchema, viewIdParamSchema, viewListQuerySchema, viewUpdateSchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { createView, getView, listViews, removeView, setDefaultView, updateView } from './views.service';

const perm = "The caller must hold the permission of the view's screen (403 otherwise).";

/**
 * Saved views of list and report screens (issue 13, decision 022). Each call checks the screen's
 * permission in the service (the screen is part of the input), scope by the owner's team.
 */
export function viewsRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['views'];

  r.route({
    ...routeOf(ViewsApi.list),
    schema: {
      tags,
      summary: "The caller's views of a screen and those its team shared (own first); isDefault marks the caller's default",
      description: perm,
      querystring: inputOf(ViewsApi.list)(viewListQuerySchema),
      response: { 200: envelope(answerOf(ViewsApi.list)(savedViewListSchema)) },
    },
    handler: async (req) => ok(await listViews(deps, userOf(req), req.query.screen)),
  });

  r.route({
    ...routeOf(ViewsApi.add),
    schema: {
      tags,
      summary: 'Save the current filters of a screen as a named view (form: screen, name, query, shared)',
      description: `${perm} name: 1–40 characters, unique per user and screen (code 409). query: the screen's URL query string, at most 1,000 characters, only the screen's filter keys, each once (400 otherwise). At most 50 views per user and screen (code 409).`,
      body: inputOf(ViewsApi.add)(viewBodySchema),
      response: { 200: envelope(answerOf(ViewsApi.add)(savedViewSchema)) },
    },
    handler: async (req) => ok(await createView(deps, userOf(req), req.body)),
  });

  r.route({
    ...routeOf(ViewsApi.setDefault),
    schema: {
      tags,
      summary: "Set (viewId: a view the caller can open, of that screen) or clear (no viewId) the caller's default view of a screen",
      description: perm,
      body: inputOf(ViewsApi.setDefault)(viewDefaultSchema),
      response: { 200: envelope(answerOf(ViewsApi.setDefault)(z.null())) },
    },
    handler: async (req) => {
      await setDefaultView(deps, userOf(req), req.body.screen, req.body.viewId);
      return ok(null);
    },
  });

  r.route({
    ...routeOf(ViewsApi.get),
    schema: {
      tags,
      summary: 'One view the caller can open (its own, or shared with its team): the link of a shared view',
      description: perm,
      params: inputOf(ViewsApi.get)(viewIdParamSchema),
      response: { 200: envelope(answerOf(ViewsApi.get)(savedViewSchema)) },
    },
    handler: async (req) => ok(await getView(deps, userOf(req), req.params.id)),
  });

  r.route({
    ...routeOf(ViewsApi.update),
    schema: {
      tags,
      summary: 'Rename, change the filters of, share or unshare a view (owner only: 403 for a teammate, 404 for anyone else)',
      params: inputOf(ViewsApi.update)(viewIdParamSchema),
      body: inputOf(ViewsApi.update)(viewUpdateSchema),
      response: { 200: envelope(answerOf(ViewsApi.update)(savedViewSchema)) },
    },
    handler: async (req) => ok(await updateView(deps, userOf(req), req.params.id, req.body)),
  });

  r.route({
    ...routeOf(ViewsApi.remove),
    schema: {
      tags,
      summary: "Delete a view (owner only); it stops being anyone's default",
      params: inputOf(ViewsApi.remove)(viewIdParamSchema),
      response: { 200: envelope(answerOf(ViewsApi.remove)(z.null())) },
    },
    handler: async (req) => {
      await removeView(deps, userOf(req), req.params.id);
      return ok(null);
    },
  });
}
