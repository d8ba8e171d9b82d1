import { instancesToCsv } from '../catalog/instance-csv.js';
import { INSTANCE_RECORD_EXAMPLE } from './schemas/examples.js';

/** The parts of an OpenAPI 3.1 document this file touches. */
interface OpenApiDocument {
  paths?: Record<
    string,
    Record<string, { responses?: Record<string, ResponseObject> }> | undefined
  >;
}

interface ResponseObject {
  content?: Record<string, unknown>;
  headers?: Record<string, unknown>;
}

/**
 * Declares GET /instances' CSV answer (D47) in the OpenAPI document. The route's response
 * schema stays JSON only, because Fastify serialises by it; the CSV body is a string written
 * by our own writer, so it is described here, after the document is generated, with an
 * example produced by that writer from the JSON example record.
 */
export function describeCsvExport<T extends object>(document: T): T {
  // The generated document's own types (openapi-types, through @fastify/swagger) are a union
  // of OpenAPI versions; only these few members are read or written here.
  const ok = (document as OpenApiDocument).paths?.['/instances']?.['get']?.responses?.['200'];
  if (ok === undefined) return document;
  ok.content = {
    ...ok.content,
    'text/csv': {
      schema: {
        type: 'string',
        description:
          'RFC 4180, UTF-8, CRLF line ends, a header row; a cell beginning with =, +, -, @, tab or carriage return (or their full-width forms) is prefixed with an apostrophe.',
      },
      example: instancesToCsv([INSTANCE_RECORD_EXAMPLE]),
    },
  };
  ok.headers = {
    ...ok.headers,
    'X-Total-Count': {
      description: 'CSV only: records matching the query, of which this body holds one page.',
      schema: { type: 'integer', minimum: 0 },
    },
    'Content-Disposition': {
      description: 'CSV only: `attachment; filename="instances.csv"`.',
      schema: { type: 'string' },
    },
  };
  return document;
}
