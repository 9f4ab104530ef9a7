/**
 * The drawings of the overview (recharts): loaded after the page's numbers,
 * which do not wait for them. Colours are the theme's CSS variables, so light
 * and dark both read.
 */
import type { MetricsDataPoint } from "@latchkey/js";
import { useId } from "react";
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Cell, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatCount, formatLongDay, formatShortDay } from "./format.ts";

const TICK = { fill: "var(--muted)", fontSize: 12 };
const TOOLTIP_STYLE = {
  background: "var(--surface)",
  border: "1px solid var(--border)",
  borderRadius: "var(--radius)",
  color: "var(--text)",
  fontSize: 13,
};

/** One daily series: bars (counts of events) or an area (a level, such as active users). */
export function DailyDrawing({ data, unit, kind }: { data: MetricsDataPoint[]; unit: string; kind: "bar" | "area" }) {
  const id = useId();
  const gradient = `${id}-fill`;
  const axes = (
    <>
      <CartesianGrid vertical={false} stroke="var(--border)" strokeDasharray="3 3" />
      <XAxis
        dataKey="date"
        tickFormatter={formatShortDay}
        tick={TICK}
        tickLine={false}
        axisLine={{ stroke: "var(--border)" }}
        minTickGap={28}
      />
      <YAxis allowDecimals={false} tick={TICK} tickLine={false} axisLine={false} width={36} />
      <Tooltip
        contentStyle={TOOLTIP_STYLE}
        labelStyle={{ color: "var(--muted)" }}
        itemStyle={{ color: "var(--text)" }}
        cursor={kind === "bar" ? { fill: "var(--surface-2)" } : { stroke: "var(--border)" }}
        labelFormatter={(date) => formatLongDay(String(date))}
        formatter={(value) => [formatCount(Number(value)), unit]}
      />
    </>
  );
  return (
    <ResponsiveContainer width="100%" height={220}>
      {kind === "bar" ? (
        <BarChart data={data} accessibilityLayer={false} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
          {axes}
          <Bar dataKey="activity" name={unit} fill="var(--primary)" radius={[3, 3, 0, 0]} maxBarSize={18} isAnimationActive={false} />
        </BarChart>
      ) : (
        <AreaChart data={data} accessibilityLayer={false} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
          <defs>
            <linearGradient id={gradient} x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor="var(--primary)" stopOpacity={0.35} />
              <stop offset="100%" stopColor="var(--primary)" stopOpacity={0.02} />
            </linearGradient>
          </defs>
          {axes}
          <Area
            type="monotone"
            dataKey="activity"
            name={unit}
            stroke="var(--primary)"
            strokeWidth={2}
            fill={`url(#${gradient})`}
            isAnimationActive={false}
          />
        </AreaChart>
      )}
    </ResponsiveContainer>
  );
}

/** Shares of a whole as a donut; the legend beside it carries the words. */
export function DonutDrawing({ data }: { data: { name: string; count: number; color: string }[] }) {
  return (
    <ResponsiveContainer width="100%" height={180}>
      <PieChart accessibilityLayer={false}>
        <Pie
          data={data}
          dataKey="count"
          nameKey="name"
          innerRadius={52}
          outerRadius={80}
          paddingAngle={data.length > 1 ? 2 : 0}
          stroke={data.length > 1 ? "var(--surface)" : "none"}
          isAnimationActive={false}
          rootTabIndex={-1}
        >
          {data.map((d) => (
            <Cell key={d.name} fill={d.color} />
          ))}
        </Pie>
        <Tooltip
          contentStyle={TOOLTIP_STYLE}
          itemStyle={{ color: "var(--text)" }}
          formatter={(value, name) => [formatCount(Number(value)), name]}
        />
      </PieChart>
    </ResponsiveContainer>
  );
}
