import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, type ButtonProps } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { LIMITS } from '@portal/contract';

/** The export button of spec §4/§9: after a click it stays locked for 3 seconds. */
export function ExportButton({ onClick, children, lockMs = LIMITS.exportLockMs, ...rest }: Omit<ButtonProps, 'onClick'> & { onClick: () => void; children: ReactNode; lockMs?: number }) {
  const [locked, setLocked] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <Button
      icon={<DownloadOutlined />}
      {...rest}
      disabled={locked || rest.disabled}
      onClick={() => {
        setLocked(true);
        timer.current = setTimeout(() => setLocked(false), lockMs);
        onClick();
      }}
    >
      {children}
    </Button>
  );
}
