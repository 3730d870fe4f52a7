/** Server messages of saved views (spread into MESSAGES). */
export const VIEW_MESSAGES = {
  viewQueryInvalid: {
    en: 'These filters cannot be saved for this screen ({detail})',
    zh: '这些筛选条件不能保存到此页面（{detail}）',
    ko: '이 필터는 이 화면에 저장할 수 없습니다 ({detail})',
    ja: 'この条件はこの画面に保存できません（{detail}）',
  },
  viewNameTaken: {
    en: 'You already have a view with this name on this screen',
    zh: '此页面已有同名视图',
    ko: '이 화면에 같은 이름의 보기가 이미 있습니다',
    ja: 'この画面には同じ名前のビューが既にあります',
  },
  viewLimit: {
    en: 'At most {max} views per screen: delete one first',
    zh: '每个页面最多 {max} 个视图：请先删除一个',
    ko: '화면당 보기는 최대 {max}개입니다. 먼저 하나를 삭제하세요',
    ja: '1画面あたりのビューは最大 {max} 件です。先に1件削除してください',
  },
  viewNotOwner: {
    en: 'Only the person who saved this view can change or delete it',
    zh: '只有保存此视图的人才能修改或删除它',
    ko: '이 보기를 저장한 사람만 변경하거나 삭제할 수 있습니다',
    ja: 'このビューを保存した人だけが変更・削除できます',
  },
} as const;
