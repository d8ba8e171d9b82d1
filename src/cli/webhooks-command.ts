// `cloudprice webhooks list | deliveries`: the subscriptions (without secrets) and their recent
// deliveries (D42), read from the configured database. Delivery itself is the servers' job.
import {
  toDeliveryJson,
  toWebhookJson,
  type DeliveryJson,
  type WebhookJson,
} from '../events/webhook-service.js';
import {
  configOf,
  EXIT_OK,
  EXIT_USAGE,
  parseCommandArgs,
  UsageError,
  withServices,
  type CliIo,
} from './cli-common.js';

export const WEBHOOKS_USAGE = `Usage: cloudprice webhooks list [--json]
       cloudprice webhooks deliveries [--webhook <id>] [--limit <n>] [--json]

list        every webhook subscription: id, events, filter, URL (secrets are never shown)
deliveries  the most recent deliveries, newest first (default 20, at most 500): status
            (pending, delivered, failed = given up after 24 h), attempts, last answer

  --webhook <id>  only this subscription's deliveries
  --limit <n>     how many deliveries (1 to 500)
  --json          print JSON instead of a table`;

/** Columns padded to their widest cell; the last column is not padded. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

export function formatWebhooks(hooks: readonly WebhookJson[]): string {
  if (hooks.length === 0) return 'No webhooks.';
  return table(
    ['ID', 'EVENTS', 'FILTER', 'CREATED', 'URL'],
    hooks.map((hook) => [
      hook.id,
      hook.events.join(','),
      Object.entries(hook.filter)
        .map(([key, value]) => `${key}=${value}`)
        .join(',') || '-',
      hook.created_at,
      hook.url,
    ]),
  );
}

export function formatDeliveries(deliveries: readonly DeliveryJson[]): string {
  if (deliveries.length === 0) return 'No deliveries.';
  return table(
    ['CREATED', 'WEBHOOK', 'EVENT', 'STATUS', 'ATTEMPTS', 'LAST', 'NEXT ATTEMPT', 'MESSAGE ID'],
    deliveries.map((d) => [
      d.created_at,
      d.webhook_id,
      d.event_type,
      d.status,
      String(d.attempts),
      d.last_status !== null ? String(d.last_status) : (d.last_error ?? '-'),
      d.next_attempt_at ?? '-',
      d.message_id,
    ]),
  );
}

export async function runWebhooksCommand(args: readonly string[], io: CliIo): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    io.out(WEBHOOKS_USAGE);
    return sub === undefined ? EXIT_USAGE : EXIT_OK;
  }
  const command = `webhooks ${sub}`;
  if (sub === 'list') {
    const { values } = parseCommandArgs(command, rest, { json: { type: 'boolean' } }, false);
    const hooks = await withServices(configOf(io), io, (services) =>
      services.store.webhooks.list(),
    );
    const json = hooks.map(toWebhookJson);
    io.out(values.json === true ? JSON.stringify(json, null, 2) : formatWebhooks(json));
    return EXIT_OK;
  }
  if (sub === 'deliveries') {
    const { values } = parseCommandArgs(
      command,
      rest,
      { json: { type: 'boolean' }, webhook: { type: 'string' }, limit: { type: 'string' } },
      false,
    );
    const limit = values.limit === undefined ? 20 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) {
      throw new UsageError('--limit must be a whole number from 1 to 500', command);
    }
    const rows = await withServices(configOf(io), io, (services) =>
      services.store.webhooks.deliveries({
        limit,
        ...(values.webhook !== undefined && { webhookId: values.webhook }),
      }),
    );
    const json = rows.map(toDeliveryJson);
    io.out(values.json === true ? JSON.stringify(json, null, 2) : formatDeliveries(json));
    return EXIT_OK;
  }
  throw new UsageError(`unknown subcommand "${sub}" (list, deliveries)`, 'webhooks');
}
