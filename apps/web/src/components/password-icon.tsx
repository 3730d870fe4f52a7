import { EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';

/**
 * The show/hide eye of a password field as a 24 × 24 px target (WCAG 2.5.8; antd's own icon is
 * 14 px). Pass as `iconRender` of `Input.Password`: antd puts its class and click handler on it.
 */
export const passwordIcon = (visible: boolean) => (
  <span style={{ display: 'inline-flex', alignItems: 'center', justifyContent: 'center', width: 24, height: 24, margin: '-5px -5px -5px 0' }}>
    {visible ? <EyeOutlined /> : <EyeInvisibleOutlined />}
  </span>
);
