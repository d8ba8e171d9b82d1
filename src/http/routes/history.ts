import type { FastifyInstance } from 'fastify';
import { parseCurrency } from '../../fx/currency-parameter.js';
import {
  parseChangesQuery,
  parseHistoryOption,
  parseRecordId,
} from '../../history/history-query.js';
import { changeFeed, recordHistory } from '../../history/history-service.js';
import type { AppServices } from '../app-services.js';
import { AppError } from '../../api/errors.js';
import { queryFailure } from '../query-failure.js';
import { invalidParameter } from '../../api/parameter-error.js';
import { ApiKeySecurity, commonErrorResponses } from '../schemas/common.js';
import {
  ChangeItem,
  ChangesQuery,
  ChangesResponse,
  HistoryParams,
  HistoryQuery,
  HistoryResponse,
  PricePeriod,
} from '../schemas/history.js';
import { INSTANCES_RATE_LIMIT } from './instances.js';

// GET /instances/{id}/history (D39) and GET /changes (D40). Both count against the /instances
// rate limit (one budget for catalogue reads).

const readLimit = { rateLimit: INSTANCES_RATE_LIMIT, rateLimitScope: '/instances' };

export function historyRoutes(app: FastifyInstance, { store, rates }: AppServices): void {
  app.addSchema(PricePeriod);
  app.addSchema(ChangeItem);

  app.get(
    '/instances/:id/history',
    {
      config: readLimit,
      schema: {
        operationId: 'getInstanceHistory',
        tags: ['history'],
        summary: "A record's price periods, newest first",
        description:
          "The record as in /instances (available or not) and its price periods (D39). A period opens when a sync changes the price or availability and closes at the next such sync; unchanged syncs add nothing. `currency` (D43): every price, the record's and the periods', converted at the latest rate (not the rate of the period's time), with data.metadata.exchange_rate. Unknown id: 404 NOT_FOUND; an id that is not a positive whole number or an unknown currency: 400 INVALID_PARAMETER. Counts against the /instances rate limit.",
        security: ApiKeySecurity,
        params: HistoryParams,
        querystring: HistoryQuery,
        response: { 200: HistoryResponse, ...commonErrorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const parsed = parseRecordId((request.params as { id: string }).id);
      if (!parsed.ok) throw invalidParameter(parsed.problem);
      const money = parseCurrency(
        (request.query as Record<string, unknown>)['currency'],
        rates.current(),
      );
      if (!money.ok) throw invalidParameter(money.problem);
      const option = parseHistoryOption(request.query as Record<string, unknown>);
      if (!option.ok) throw invalidParameter(option.problem);
      const body = await recordHistory(store, parsed.value, money.value, option.value).catch(
        (error: unknown) => {
          request.log.error({ err: error }, 'history query failed');
          throw queryFailure(error);
        },
      );
      if (body === undefined) {
        throw new AppError('NOT_FOUND', `No instance record with id ${parsed.value}`);
      }
      return reply.send({ success: true, data: body });
    },
  );

  app.get(
    '/changes',
    {
      config: readLimit,
      schema: {
        operationId: 'listChanges',
        tags: ['history'],
        summary: 'The change feed: what each sync changed, oldest (or newest) first',
        description:
          'Items are added, removed, returned, price_increased and price_decreased (D40), in commit order: by the catalogue version of the sync that recorded them, then id (so mostly by time; concurrent syncs may interleave). Page with `cursor` = the previous `next_cursor`. Extensions (ADR 0022): `kind` takes a comma-separated list; `order=newest` lists the same order reversed (the cursor is a position, valid in both orders); `sync_id` narrows to one sync; `summary=true` adds data.summary, counts per kind and per (sync, kind, provider) over the whole window and filters, whatever the page. `currency` (D43): old and new prices converted at the latest rate, each with `currency`, and data.metadata.exchange_rate; change_pct is the same in every currency. Bad parameters: 400 INVALID_PARAMETER with details {parameter, value, reason[, allowed]}. Counts against the /instances rate limit.',
        security: ApiKeySecurity,
        querystring: ChangesQuery,
        response: { 200: ChangesResponse, ...commonErrorResponses(400) },
      },
    },
    async (request, reply) => {
      const query = request.query as Record<string, unknown>;
      const parsed = parseChangesQuery(query, new Date());
      if (!parsed.ok) throw invalidParameter(parsed.problem);
      const money = parseCurrency(query['currency'], rates.current());
      if (!money.ok) throw invalidParameter(money.problem);
      const body = await changeFeed(store, parsed.value, money.value).catch((error: unknown) => {
        request.log.error({ err: error }, 'change feed query failed');
        throw queryFailure(error);
      });
      return reply.header('cache-control', 'no-store').send({ success: true, data: body });
    },
  );
}
