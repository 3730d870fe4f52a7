import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ScheduleApi, pageQuerySchema, scheduleIdSchema, scheduleInputSchema, scheduleRecipientSchema, scheduleSchema, scheduleUpdateSchema } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { userOf } from '../../plugins/auth';
import { envelope, ok, pageOf } from '../../lib/envelope';
import { answerOf, inputOf, routeOf } from '../../lib/endpoint-route';
import { t } from '../../lib/messages';
import { listSchedules, toSchedule, usersInScope } from './schedule.repo';
import { createSchedule, deleteSchedule, editSchedule, pauseSchedule, sendScheduleNow } from './schedule.service';

const TAG = ['schedules'];

/**
 * Scheduled reports (issue 13, docs/api.md "Scheduled reports"): the caller's own schedules. Every
 * call needs report:file (runs land in the file report); creating, editing, resuming and sending
 * also need the export permission of the scheduled report. Another user's id answers 404.
 */
export function scheduleRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...routeOf(ScheduleApi.list),
    schema: {
      tags: TAG,
      summary: "The caller's scheduled reports, newest first, with next run and last result",
      querystring: inputOf(ScheduleApi.list)(pageQuerySchema),
      response: { 200: envelope(answerOf(ScheduleApi.list)(pageOf(scheduleSchema))) },
    },
    handler: async (req) => {
      const { rows, total } = await listSchedules(deps.db, userOf(req).id, req.query.page, req.query.size);
      return ok({ content: rows.map(toSchedule), totalElements: total });
    },
  });

  r.route({
    ...routeOf(ScheduleApi.recipients),
    schema: {
      tags: TAG,
      summary: "Who a schedule may be sent to: the active users of the caller's merchants",
      response: { 200: envelope(answerOf(ScheduleApi.recipients)(z.array(scheduleRecipientSchema))) },
    },
    handler: async (req) => ok(await usersInScope(deps.db, userOf(req).scope)),
  });

  r.route({
    ...routeOf(ScheduleApi.create),
    schema: {
      tags: TAG,
      summary: 'Schedule a report (form: kind, params JSON, format, frequency, time HH:mm, weekday 1–7 | monthDay 1–31, timeZone, recipients comma-joined)',
      body: scheduleInputSchema,
      response: { 200: envelope(answerOf(ScheduleApi.create)(scheduleSchema)) },
    },
    handler: async (req) => ok(toSchedule(await createSchedule(deps, userOf(req), req.body, req.lang))),
  });

  r.route({
    ...routeOf(ScheduleApi.update),
    schema: {
      tags: TAG,
      summary: 'Edit a schedule (form: id and the fields of create)',
      body: scheduleUpdateSchema,
      response: { 200: envelope(answerOf(ScheduleApi.update)(scheduleSchema)) },
    },
    handler: async (req) => ok(toSchedule(await editSchedule(deps, userOf(req), req.body.id, req.body, req.lang))),
  });

  r.route({
    ...routeOf(ScheduleApi.pause),
    schema: {
      tags: TAG,
      summary: 'Pause a schedule (form: id): no runs until resumed',
      body: inputOf(ScheduleApi.pause)(scheduleIdSchema),
      response: { 200: envelope(answerOf(ScheduleApi.pause)(scheduleSchema)) },
    },
    handler: async (req) => ok(toSchedule(await pauseSchedule(deps, userOf(req), req.body.id, true))),
  });

  r.route({
    ...routeOf(ScheduleApi.resume),
    schema: {
      tags: TAG,
      summary: 'Resume a schedule (form: id): the next run is the next matching time from now',
      body: inputOf(ScheduleApi.resume)(scheduleIdSchema),
      response: { 200: envelope(answerOf(ScheduleApi.resume)(scheduleSchema)) },
    },
    handler: async (req) => ok(toSchedule(await pauseSchedule(deps, userOf(req), req.body.id, false))),
  });

  r.route({
    ...routeOf(ScheduleApi.delete),
    schema: {
      tags: TAG,
      summary: 'Delete a schedule (form: id); its past files stay in the file report',
      body: inputOf(ScheduleApi.delete)(scheduleIdSchema),
      response: { 200: envelope(answerOf(ScheduleApi.delete)(z.null())) },
    },
    handler: async (req) => {
      await deleteSchedule(deps, userOf(req), req.body.id);
      return ok(null);
    },
  });

  r.route({
    ...routeOf(ScheduleApi.sendNow),
    schema: {
      tags: TAG,
      summary: 'Run a schedule now (form: id), through the job runner; its file lands in the file report',
      body: inputOf(ScheduleApi.sendNow)(scheduleIdSchema),
      response: { 200: envelope(answerOf(ScheduleApi.sendNow)(z.null())) },
    },
    handler: async (req) => {
      await sendScheduleNow(deps, userOf(req), req.body.id);
      return { code: 0, msg: t(req.lang, 'scheduleSendQueued'), data: null };
    },
  });
}
