import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { Flex, Table, type TablePaginationConfig } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { Money } from '../../../components/money';
import { useColumnChoice } from '../../../components/column-chooser';
import { pageTotals } from '../report-money';
import { pageItem } from '../../../lib/page-items';
import '../report.css';

/** One column of a report: plain (render) or money (a decimal string and its currency, right-aligned, totalled). */
export interface ReportColumn<R> {
  key: string;
  title: ReactNode;
  width?: number;
  render?: (r: R) => ReactNode;
  money?: { value: (r: R) => string; currency: (r: R) => string; showCurrency?: boolean; sign?: (r: R) => 1 | -1 };
  fixed?: 'left' | 'right';
  align?: 'right';
}

/**
 * A report table: money right-aligned in its currency's decimals and the user's locale, page totals
 * per currency under the rows, and the reports' pagination of spec §2 — sizes 5/10/30/50/100,
 * default 10, layout sizes / prev / next with the texts 'Previous Page' (the spec's 'Last Page' reads as
 * the final page, and a screen reader announced it so — issue 29) and 'Next Page'.
 */
export function ReportTable<R extends object>({
  table,
  columns: allColumns,
  defaultHidden,
  rows,
  total,
  loading,
  pagination,
  rowKey,
  label,
}: {
  /** The table's name for the user's remembered column choice. */
  table: string;
  columns: ReportColumn<R>[];
  /** The columns left out until the user picks them (issue 29 §3: the figures in view at 1440 px). */
  defaultHidden?: readonly string[];
  rows: R[];
  total: number;
  loading: boolean;
  pagination: (total: number, extra?: TablePaginationConfig) => TablePaginationConfig;
  rowKey: (r: R) => string;
  label: string;
}) {
  const { t } = useTranslation('report');
  const { visible: columns, scrollX, chooser } = useColumnChoice(table, allColumns, defaultHidden);
  const antColumns = useMemo<ColumnsType<R>>(
    () =>
      columns.map((c) => ({
        key: c.key,
        title: c.title,
        width: c.width,
        fixed: c.fixed,
        align: c.money ? 'right' : c.align,
        render: (_: unknown, r: R) => (c.money ? <Money value={c.money.value(r)} currency={c.money.currency(r)} showCurrency={!!c.money.showCurrency} /> : c.render?.(r)),
      })),
    [columns],
  );
  const totals = useMemo(() => pageTotals(rows, columns), [rows, columns]);
  // The sideways-scrolling region takes the keyboard focus (arrow keys scroll it; WCAG 2.1.1), named after the report.
  const frame = useRef<HTMLDivElement>(null);
  useEffect(() => {
    frame.current?.querySelectorAll<HTMLElement>('.ant-table-content, .ant-table-body').forEach((el) => {
      el.tabIndex = 0;
      el.setAttribute('role', 'region');
      el.setAttribute('aria-label', label);
    });
  });
  const firstMoney = columns.findIndex((c) => c.money);
  return (
    <div ref={frame}>
      <Flex justify="end" className="table-tools">
        {chooser}
      </Flex>
      <Table<R>
        className="report-table"
        aria-label={label}
        rowKey={rowKey}
        size="middle"
        columns={antColumns}
        dataSource={rows}
        loading={loading}
        scroll={{ x: scrollX }}
        // Columns as wide as their figures (issue 13 fix 3); the Details column scrolls with the figures (a fixed column would sit on the figures of a table wider than the screen).
        tableLayout="auto"
        pagination={pagination(total, {
          className: 'report-pager',
          showTotal: undefined,
          // Anchors without href, as antd's own: presentational (lib/page-items.ts, issue 52).
          itemRender: (page, type, el) => {
            if (type === 'prev') return pageItem(page, type, <a className="report-pager__text">{t('pager.prev')}</a>);
            if (type === 'next') return pageItem(page, type, <a className="report-pager__text">{t('pager.next')}</a>);
            return pageItem(page, type, el);
          },
        })}
        summary={() =>
          totals.length > 0 && (
            <Table.Summary>
              {totals.map((tot, i) => (
                <Table.Summary.Row key={tot.currency} className="report-total">
                  <Table.Summary.Cell index={0} colSpan={Math.max(1, firstMoney)}>
                    {i === 0 ? <strong>{t('total.page')}</strong> : null}
                    <span className="report-total__cur">{tot.currency}</span>
                  </Table.Summary.Cell>
                  {columns.slice(Math.max(1, firstMoney)).map((c, j) => (
                    <Table.Summary.Cell key={c.key} index={Math.max(1, firstMoney) + j} align="right">
                      {c.money && tot.values[c.key] !== undefined ? <Money value={tot.values[c.key]} currency={tot.currency} strong /> : null}
                    </Table.Summary.Cell>
                  ))}
                </Table.Summary.Row>
              ))}
            </Table.Summary>
          )
        }
      />
    </div>
  );
}
