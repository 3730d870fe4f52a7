import type { CSSProperties } from 'react';
import { Table, type TablePaginationConfig } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';

/**
 * A list's table bound to its page of rows: row key `id`, the URL-kept pagination (spec §9 sizes)
 * with the namespace's total text ('N in total').
 */
export function ListTable<R extends { id: string | number }>({
  ns,
  columns,
  list,
  pagination,
  scrollX,
  style,
}: {
  /** The i18n namespace whose `total` text the pager shows. */
  ns: string;
  columns: ColumnsType<R>;
  list: { data?: { content: R[]; totalElements: number }; isFetching: boolean };
  pagination: (total: number, extra?: TablePaginationConfig) => TablePaginationConfig;
  scrollX: number;
  style?: CSSProperties;
}) {
  const { t } = useTranslation(ns);
  return (
    <Table<R>
      style={style}
      rowKey="id"
      size="middle"
      columns={columns}
      dataSource={list.data?.content ?? []}
      loading={list.isFetching}
      scroll={{ x: scrollX }}
      pagination={pagination(list.data?.totalElements ?? 0, { showTotal: (n) => t('total', { count: n }) })}
    />
  );
}
