import BarChartOutlined from '@ant-design/icons-svg/es/asn/BarChartOutlined';
import LinkOutlined from '@ant-design/icons-svg/es/asn/LinkOutlined';
import SafetyCertificateOutlined from '@ant-design/icons-svg/es/asn/SafetyCertificateOutlined';
import { useTranslation } from 'react-i18next';
import logo from '../../assets/logo.svg';
import { SvgIcon } from '../../components/light/svg-icon';
import { COPYRIGHT_YEAR } from '../../lib/copyright';

/** The brand side of the sign-in screen (hidden on narrow screens). */
export function LoginHero() {
  const { t } = useTranslation(['login', 'layout']);
  const points = [
    { icon: <SvgIcon icon={BarChartOutlined} />, title: t('hero.reportsTitle'), text: t('hero.reportsText') },
    { icon: <SvgIcon icon={LinkOutlined} />, title: t('hero.linkTitle'), text: t('hero.linkText') },
    { icon: <SvgIcon icon={SafetyCertificateOutlined} />, title: t('hero.secureTitle'), text: t('hero.secureText') },
  ];
  return (
    <aside className="login-hero" aria-hidden="false">
      <div className="login-hero__brand">
        <img src={logo} alt="" width={36} height={36} />
        <span>{t('layout:product')}</span>
      </div>
      <div className="login-hero__copy">
        <h2>{t('hero.headline')}</h2>
        <p>{t('hero.lead')}</p>
        <ul>
          {points.map((p) => (
            <li key={p.title}>
              <span className="login-hero__icon">{p.icon}</span>
              <span>
                <strong>{p.title}</strong>
                <br />
                {p.text}
              </span>
            </li>
          ))}
        </ul>
      </div>
      <div className="login-hero__foot">{t('layout:copyright', { from: 2015, to: COPYRIGHT_YEAR })}</div>
    </aside>
  );
}
