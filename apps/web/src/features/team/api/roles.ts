import { useQuery } from '@tanstack/react-query';
import { http } from '../../../lib/http';
import { TeamApi, type SaveRoleBody } from '@portal/contract';
import { apiQuery } from '../../../lib/api-query';
export type { SaveRoleBody } from '@portal/contract';

/** GET /role/list: the named roles of the merchant scope (issue 28). */
export const roleListQuery = () => apiQuery(TeamApi.roles, undefined);
export const useRoleList = (enabled = true) => useQuery({ ...roleListQuery(), enabled });

/** POST /role/save: a new role (no roleId) or a change, which applies to every user holding it at once. */
export const saveRole = (body: SaveRoleBody) => http.call(TeamApi.saveRole, { ...body }, { quiet: true });

/** POST /role/remove: only a role no user holds. */
export const removeRole = (roleId: number) => http.call(TeamApi.removeRole, { roleId }, { quiet: true });
