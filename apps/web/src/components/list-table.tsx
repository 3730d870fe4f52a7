import { useDeferredValue, type CSSProperties } from 'react';
import { Button, Flex, Table, type TablePaginationConfig } from 'antd';
import { useColumnChoice } from './column-chooser';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { useFocusableScroll } from './focusable-scroll';

/**
 * A list's table bound to its page of rows: row key `id`, the URL-kept pagination (spec §9 sizes)
 * with the namespace's total text ('N in total'). A list whose server bounds its count (issue 16:
 * `totalExact` false) shows 'More than N' with a 'Count exactly' button (`onCountExactly`,
 * texts `totalMore` / `countExactly` of the namespace); `maxRows` keeps the pager within the rows
 * the server pages to.
 */
export function ListTable<R extends { id: string | number }>({
  ns,
  columns: allColumns,
  list,
  pagination,
  scrollX: givenScrollX,
  style,
  table,
  defaultHidden,
  onCountExactly,
  maxRows,
}: {
  /** The i18n namespace whose `total` text the pager shows. */
  ns: string;
  columns: ColumnsType<R>;
  list: { data?: { content: R[]; totalElements: number; totalExact?: boolean }; isFetching: boolean };
  pagination: (total: number, extra?: TablePaginationConfig) => TablePaginationConfig;
  scrollX?: number;
  style?: CSSProperties;
  onCountExactly?: () => void;
  maxRows?: number;
  /** With a name: a "Columns" chooser whose choice is remembered per user (issue 29 §3), `defaultHidden` left out until picked. */
  table?: string;
  defaultHidden?: readonly string[];
}) {
  const { t, i18n } = useTranslation(ns);
  const choice = useColumnChoice(table ?? '', allColumns, defaultHidden);
  const columns = table ? choice.visible : allColumns;
  const scrollX = table ? choice.scrollX : givenScrollX;
  const frame = useFocusableScroll(t('resultsTable', { ns: 'layout' }));
  const data = useDeferredValue(list.data);
  const total = data?.totalElements ?? 0;
  const bounded = data?.totalExact === false;
  const showTotal = () =>
    bounded ? (
      <span data-testid="list-total">
        {t('totalMore', { n: total.toLocaleString(i18n.language) })}
        {onCountExactly && (
          <Button type="link" size="small" onClick={onCountExactly} loading={list.isFetching} data-testid="count-exactly">
            {t('countExactly')}
          </Button>
        )}
      </span>
    ) : (
      <span data-testid="list-total">{t('total', { count: total })}</span>
    );
  return (
    <div ref={frame}>
      {table && (
        <Flex justify="end" className="table-tools">
          {choice.chooser}
        </Flex>
      )}
      <Table<R>
        style={style}
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={data?.content ?? []}
        loading={list.isFetching || data !== list.data}
        scroll={{ x: scrollX }}
        pagination={pagination(maxRows !== undefined ? Math.min(total, maxRows) : total, { showTotal })}
      />
    </div>
  );
}
