import { Spin } from 'antd';

/** Shown while a lazy screen or the session loads. */
export function FullPageSpin() {
  return (
    <div style={{ minHeight: '60vh', display: 'grid', placeItems: 'center' }}>
      <Spin size="large" />
    </div>
  );
}
