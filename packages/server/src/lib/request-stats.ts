/**
 * Request counts and latencies, kept in plain numbers and handed to
 * prom-client only when /metrics is scraped. prom-client's own counters hash
 * their label set on every call (about 1 µs each, a few per cent of a cached
 * read's whole cost here); this is three map lookups and a few additions.
 * The lookups go by route, method and status in turn rather than by one key
 * built from them: a key built per request is a new string to allocate and
 * hash every time, while the route patterns and methods are the same string
 * objects on every request, their hashes computed once.
 */
import type { Metric, MetricType, MetricValue, MetricValueWithName, Registry } from "prom-client";

interface Latency {
  labels: { method: string; route: string };
  /** Observations per bucket (not cumulative; made so at export); the last is +Inf. */
  buckets: Float64Array;
  sum: number;
  count: number;
}

interface Series {
  labels: { method: string; route: string; status: string };
  count: number;
  latency: Latency;
}

export class RequestStats {
  /** Route pattern → method → status → series. */
  readonly #series = new Map<string, Map<string, Map<number, Series>>>();
  readonly #latencies = new Map<string, Latency>();

  constructor(
    registry: Registry,
    private readonly names: { requests: string; duration: string },
    private readonly bounds: readonly number[],
  ) {
    registry.registerMetric(
      this.collector(names.requests, "HTTP requests answered, by method, route pattern and status.", "counter", () => this.counts()),
    );
    registry.registerMetric(
      this.collector(names.duration, "Time from a request's arrival to its response, by method and route pattern.", "histogram", () =>
        this.histogram(),
      ),
    );
  }

  record(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.#series.get(route);
    if (byMethod === undefined) this.#series.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (series === undefined) series = this.addSeries(byStatus, method, route, status);
    series.count++;
    const latency = series.latency;
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && seconds > bounds[i]!) i++;
    latency.buckets[i]!++;
    latency.sum += seconds;
    latency.count++;
  }

  private addSeries(byStatus: Map<number, Series>, method: string, route: string, status: number): Series {
    const latencyKey = `${method} ${route}`;
    let latency = this.#latencies.get(latencyKey);
    if (!latency) {
      latency = { labels: { method, route }, buckets: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
      this.#latencies.set(latencyKey, latency);
    }
    const series = { labels: { method, route, status: String(status) }, count: 0, latency };
    byStatus.set(status, series);
    return series;
  }

  private counts(): MetricValue<string>[] {
    const values: MetricValue<string>[] = [];
    for (const byMethod of this.#series.values()) {
      for (const byStatus of byMethod.values()) for (const s of byStatus.values()) values.push({ labels: s.labels, value: s.count });
    }
    return values;
  }

  private histogram(): MetricValueWithName<string>[] {
    const values: MetricValueWithName<string>[] = [];
    const name = this.names.duration;
    for (const latency of this.#latencies.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += latency.buckets[i]!;
        values.push({ metricName: `${name}_bucket`, labels: { ...latency.labels, le: bound }, value: cumulative });
      });
      values.push({ metricName: `${name}_bucket`, labels: { ...latency.labels, le: "+Inf" }, value: latency.count });
      values.push({ metricName: `${name}_sum`, labels: latency.labels, value: latency.sum });
      values.push({ metricName: `${name}_count`, labels: latency.labels, value: latency.count });
    }
    return values;
  }

  /** What a registry asks of a metric when it writes the exposition text. */
  private collector(name: string, help: string, type: "counter" | "histogram", values: () => MetricValue<string>[]): Metric {
    return {
      name,
      help,
      type: type as unknown as MetricType,
      aggregator: "sum",
      get: async () => ({ name, help, type: type as unknown as MetricType, aggregator: "sum", values: values() }),
    } as unknown as Metric;
  }
}
