import { useEffect, useRef, type ReactNode } from 'react';
import { Button, Card, Flex, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useNav } from '../lib/nav';
import { markTakenOver } from '../lib/ssr-env';

export interface PageContainerProps {
  /** Defaults to the current menu entry's title. */
  title?: ReactNode;
  /** Buttons on the right of the title. */
  extra?: ReactNode;
  /** Show a Return button: back in history, else to `/` (spec §2). */
  back?: boolean;
  /** Wrap children in a card (default) or leave them bare (several cards of their own). */
  card?: boolean;
  children: ReactNode;
}

/** The frame of every signed-in screen: title row and a content card. */
export function PageContainer({ title, extra, back, card = true, children }: PageContainerProps) {
  const { t } = useTranslation(['menu', 'common']);
  const { trail } = useNav();
  const navigate = useNavigate();
  const current = trail.at(-1);
  const heading = title ?? (current ? t(`menu:${current.name}`) : null);
  const goBack = () => (window.history.length > 1 ? navigate(-1) : navigate('/'));
  // A new page (after sign-in, a detail opened from its list) takes the focus on its heading when the
  // focus fell to the page body with the control that opened it (issue 29 §6); a focus held elsewhere stays.
  const { pathname } = useLocation();
  const frame = useRef<HTMLElement>(null);
  // A page rendered on the server (decision 050): the screen has hydrated, it takes input now.
  useEffect(markTakenOver, []);
  useEffect(() => {
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const target = frame.current?.querySelector<HTMLElement>('.page-container__title') ?? frame.current;
    target?.focus({ preventScroll: true });
  }, [pathname]);
  return (
    <section className="page-container" ref={frame} tabIndex={-1}>
      <Flex align="center" justify="space-between" gap={12} wrap className="page-container__head">
        <Flex align="center" gap={8}>
          {back && <Button type="text" icon={<ArrowLeftOutlined />} onClick={goBack} aria-label={t('common:back')} />}
          {heading && (
            <Typography.Title level={1} className="page-container__title" tabIndex={-1}>
              {heading}
            </Typography.Title>
          )}
        </Flex>
        {extra && <Flex gap={8}>{extra}</Flex>}
      </Flex>
      {card ? <Card variant="borderless">{children}</Card> : children}
    </section>
  );
}
