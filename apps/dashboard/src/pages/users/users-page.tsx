/**
 * The project's users: search, filters, order and paging, all held in the URL
 * query (readUsersQuery), a dialog to create a user and an export of the
 * filtered set. Each row opens the user's own page.
 */
import { useState, type FormEvent, type ReactNode } from "react";
import { useSearchParams } from "react-router";
import { useAdminApp, useCurrentProject } from "../../lib/owned-projects.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { Empty, Loaded } from "../../ui/states.tsx";
import { ExportUsers } from "./export-users.tsx";
import { NewUserForm } from "./new-user-form.tsx";
import {
  PAGE_SIZES,
  listFilters,
  listOptions,
  nextPage,
  previousPage,
  readUsersQuery,
  withFilters,
  writeUsersQuery,
  type AnonymousFilter,
  type UsersQuery,
} from "./users-query.ts";
import { UsersTable } from "./users-table.tsx";
import "./users.css";

const ORDERS = [
  { value: "signed_up:desc", label: "Newest sign-ups first" },
  { value: "signed_up:asc", label: "Oldest sign-ups first" },
  { value: "last_active:desc", label: "Recently active first" },
  { value: "last_active:asc", label: "Least recently active first" },
] as const;

export default function UsersPage() {
  const app = useAdminApp();
  const project = useCurrentProject();
  const [params, setParams] = useSearchParams();
  const query = readUsersQuery(params);
  const key = writeUsersQuery(query).toString();
  const users = useLoad(() => app.listUsers(listOptions(query)), [app, key]);
  const [creating, setCreating] = useState(false);
  const go = (next: UsersQuery) => setParams(writeUsersQuery(next));
  return (
    <Page
      title="Users"
      description="Everyone who has signed up to this project."
      actions={
        <>
          <ExportUsers app={app} filters={listFilters(query)} />
          <button type="button" className="button" onClick={() => setCreating(true)}>
            New user
          </button>
        </>
      }
    >
      <Dialog open={creating} title="New user" onClose={() => setCreating(false)}>
        <NewUserForm
          app={app}
          onCancel={() => setCreating(false)}
          onCreated={(user) => {
            setCreating(false);
            // Show the new user: searched for by id, whatever filters were on.
            go(withFilters(query, { search: user.id, anonymous: "exclude" }));
          }}
        />
      </Dialog>
      <Card>
        <UsersToolbar key={query.search} query={query} onChange={go} />
        <Loaded load={users} label="Loading users…">
          {(list) =>
            list.length === 0 ? (
              <Empty>
                <p>{query.search || query.anonymous === "only" || query.cursor ? "No users match." : "No users have signed up yet."}</p>
              </Empty>
            ) : (
              <>
                <UsersTable projectId={project.id} users={list} />
                <nav className="users-pager" aria-label="Pages">
                  <InlineField label="Per page" id="users-page-size">
                    <select
                      id="users-page-size"
                      className="input input-compact"
                      value={query.size}
                      onChange={(e) => go(withFilters(query, { size: Number(e.target.value) }))}
                    >
                      {sizeChoices(query.size).map((size) => (
                        <option key={size} value={size}>
                          {size}
                        </option>
                      ))}
                    </select>
                  </InlineField>
                  <div className="users-pager-buttons">
                    <button
                      type="button"
                      className="button button-secondary button-small"
                      disabled={query.cursor === null}
                      onClick={() => go(previousPage(query))}
                    >
                      Previous
                    </button>
                    <button
                      type="button"
                      className="button button-secondary button-small"
                      disabled={list.nextCursor === null}
                      onClick={() => list.nextCursor && go(nextPage(query, list.nextCursor))}
                    >
                      Next
                    </button>
                  </div>
                </nav>
              </>
            )
          }
        </Loaded>
      </Card>
    </Page>
  );
}

function sizeChoices(current: number): number[] {
  const sizes: number[] = [...PAGE_SIZES];
  return sizes.includes(current) ? sizes : [...sizes, current].sort((a, b) => a - b);
}

function InlineField({ label, id, children }: { label: string; id: string; children: ReactNode }) {
  return (
    <div className="users-inline-field">
      <label htmlFor={id}>{label}</label>
      {children}
    </div>
  );
}

function UsersToolbar({ query, onChange }: { query: UsersQuery; onChange: (next: UsersQuery) => void }) {
  const [search, setSearch] = useState(query.search);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onChange(withFilters(query, { search: search.trim() }));
  };
  const order = `${query.sort}:${query.desc ? "desc" : "asc"}`;
  return (
    <div className="users-toolbar">
      <form className="users-search" role="search" onSubmit={submit}>
        <label className="visually-hidden" htmlFor="users-search">
          Search users
        </label>
        <input
          id="users-search"
          className="input"
          type="search"
          placeholder="Search by e-mail, name or id"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <button type="submit" className="button button-secondary">
          Search
        </button>
      </form>
      <InlineField label="Anonymous users" id="users-anonymous">
        <select
          id="users-anonymous"
          className="input input-compact"
          value={query.anonymous}
          onChange={(e) => onChange(withFilters(query, { anonymous: e.target.value as AnonymousFilter }))}
        >
          <option value="exclude">Hidden</option>
          <option value="include">Shown</option>
          <option value="only">Only anonymous</option>
        </select>
      </InlineField>
      <InlineField label="Order" id="users-order">
        <select
          id="users-order"
          className="input input-compact"
          value={order}
          onChange={(e) => {
            const [sort, dir] = e.target.value.split(":");
            onChange(withFilters(query, { sort: sort === "last_active" ? "last_active" : "signed_up", desc: dir === "desc" }));
          }}
        >
          {ORDERS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </InlineField>
    </div>
  );
}
