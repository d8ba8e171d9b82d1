// The registry installs the providers these schemas list (read when this module loads).
import '../../providers/registry.js';
import { SECOND_PROVIDER } from './example-providers.js';
import { Type } from 'typebox';
import { PROVIDER_NAMES, REGION_CODES } from '../../catalog/model.js';
import { EVENT_TYPES } from '../../catalog/webhook-event-model.js';
import { InstalledEnum, withExamples, StringEnum } from './common.js';

// POST/GET/DELETE /webhooks (D42).

const Filter = Type.Object(
  {
    provider: Type.Optional(InstalledEnum(PROVIDER_NAMES)),
    region: Type.Optional(InstalledEnum(REGION_CODES)),
  },
  {
    additionalProperties: false,
    description:
      'Only events about this provider (every event) and region (price.changed items; sync events name no region).',
  },
);

const Events = Type.Array(StringEnum(EVENT_TYPES), {
  minItems: 1,
  description: 'Event types to receive.',
});

export const CreateWebhookRequest = withExamples(
  Type.Object(
    {
      url: Type.String({
        format: 'uri',
        maxLength: 2048,
        description:
          'http or https. A host resolving to a loopback, link-local or private address is refused unless the server sets WEBHOOK_ALLOW_PRIVATE=true.',
      }),
      events: Events,
      filter: Type.Optional(Filter),
    },
    { additionalProperties: false },
  ),
  {
    url: 'https://hooks.example.com/cloudprice',
    events: ['price.changed'],
    filter: { provider: SECOND_PROVIDER.name, region: 'icn' },
  },
);

const WebhookFields = {
  id: Type.String({ description: '`wh_` and 24 hex digits.' }),
  url: Type.String(),
  events: Events,
  filter: Filter,
  created_at: Type.String({ format: 'date-time' }),
};

export const Webhook = Type.Object(WebhookFields, { $id: 'Webhook' });

const WEBHOOK_EXAMPLE = {
  id: 'wh_5f0c6a3e9b1d2c4a8e7f6b5a',
  url: 'https://hooks.example.com/cloudprice',
  events: ['price.changed' as const],
  filter: { provider: SECOND_PROVIDER.name, region: 'icn' },
  created_at: '2026-01-03T00:00:00.000Z',
};

export const CreateWebhookResponse = withExamples(
  Type.Object({
    success: Type.Literal(true),
    data: Type.Object({
      ...WebhookFields,
      secret: Type.String({
        description:
          'The signing secret (`whsec_` and base64): shown only in this response. Verify `webhook-signature` with it.',
      }),
    }),
  }),
  {
    success: true,
    data: { ...WEBHOOK_EXAMPLE, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw9ZdunzYx3Tk=' },
  },
);

export const ListWebhooksResponse = withExamples(
  Type.Object({
    success: Type.Literal(true),
    data: Type.Object({
      webhooks: Type.Array(Type.Ref('Webhook'), {
        description: 'Oldest first. Secrets are never listed.',
      }),
    }),
  }),
  { success: true, data: { webhooks: [WEBHOOK_EXAMPLE] } },
);

export const WebhookParams = Type.Object({
  id: Type.String({ description: 'The id returned at creation.' }),
});
