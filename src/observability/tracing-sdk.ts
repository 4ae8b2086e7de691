import type { BuildInfo } from '../version';

/** A started OpenTelemetry SDK: flushes and stops its exporter. */
export interface TracingSdk {
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry's Node SDK for traces only, configured by the standard
 * OTEL_* variables (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL:
 * http/protobuf by default or http/json, OTEL_SERVICE_NAME,
 * OTEL_TRACES_SAMPLER, …), with W3C trace context propagation. Called only
 * when OTEL_EXPORTER_OTLP_ENDPOINT is set: the SDK is loaded here, so a server
 * without tracing never loads it. Metrics are Prometheus's (./metrics.ts) and
 * logs are pino's, so the SDK exports neither.
 */
export async function startTracingSdk(build: BuildInfo): Promise<TracingSdk> {
  const { NodeSDK, resources } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({
    // OTEL_SERVICE_NAME, when set, names the service instead.
    serviceName: process.env.OTEL_SERVICE_NAME ? undefined : 'tool-registry',
    resource: resources.defaultResource().merge(resources.resourceFromAttributes({ 'service.version': build.version })),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  return sdk;
}
