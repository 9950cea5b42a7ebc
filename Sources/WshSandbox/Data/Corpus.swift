/// The word banks the generator draws from.
///
/// They are chosen to exercise what a Weibo client must survive: CJK text,
/// emoji outside the Basic Multilingual Plane, ZWJ sequences, skin-tone and
/// flag sequences, Weibo's bracketed emoticons, `#topics#`, short links.
enum Corpus {
    static let chinese = [
        "今天天气真好", "刚下班，累死了", "周末去爬山吧", "这家店的咖啡不错", "终于把代码写完了",
        "有人一起看电影吗？", "北京的秋天最美", "地铁又晚点了", "新年快乐！", "加油！",
        "学习Swift中", "晚安，世界", "排队两小时只为一碗面", "今天也要元气满满", "猫咪又把杯子推下桌了",
        "下雨天和火锅更配", "考试终于结束了", "这部剧太好看了", "明天见", "早起的鸟儿有虫吃",
        "又是加班的一天", "第一次用这个客户端发微博", "求推荐好听的歌", "春天来了，花都开了",
        "今天的晚霞好美", "换了新手机", "健身第三十天", "外卖到了，开吃", "想去海边", "谢谢大家的关心",
    ]

    static let english = [
        "Just shipped a new release.", "Coffee first.", "Reading about MVVM today.", "What a game!",
        "Hello Weibo", "Working from home again", "Best ramen in town", "Can't sleep...",
        "New blog post is up", "Weekend mode: on", "Swift 6 is here", "Long day, good day",
        "Anyone going to the concert?", "It works on my machine", "Happy Friday",
    ]

    static let emoji = [
        "😀", "🎉", "😂", "🔥", "👍", "👍🏽", "❤️", "☕️", "🌸", "🐱", "👩‍💻", "👨‍👩‍👧",
        "🏃‍♂️", "🇨🇳", "✨", "🙏", "🤔", "😭", "🍜", "📷", "🥳", "🐼",
    ]

    /// Weibo's own emoticons, written as bracketed words in the text.
    static let emoticons = ["[哈哈]", "[心]", "[doge]", "[允悲]", "[good]", "[泪]", "[赞]", "[微笑]"]

    static let topics = [
        "#Swift#", "#周末去哪儿#", "#今日份快乐#", "#程序员的日常#", "#北京美食#", "#读书打卡#",
        "#摄影#", "#WWDC#", "#早安#", "#猫#",
    ]

    static let comments = [
        "哈哈哈", "同意 👍", "说得对", "转发了", "太真实了😂", "羡慕", "Nice!", "+1", "在哪里？",
        "求链接", "好看！", "[doge]", "我也是", "666", "Totally agree", "加油💪", "晚安🌙",
    ]

    static let repostComments = ["转发微博", "哈哈", "说得好", "马克", "Mark", "好东西", "[赞]", "支持"]

    /// The app names Weibo shows under a post, with the links it uses.
    static let sources: [(name: String, href: String)] = [
        ("iPhone客户端", "http://app.weibo.com/t/feed/5yiHuw"),
        ("Android", "http://app.weibo.com/t/feed/6vtZb0"),
        ("微博 weibo.com", "http://weibo.com/"),
        ("HUAWEI Mate 60", "http://app.weibo.com/t/feed/2gHVQR"),
        ("Weico.Pro", "http://app.weibo.com/t/feed/4ACxed"),
        ("iPad客户端", "http://app.weibo.com/t/feed/4fuyNj"),
    ]

    static let nameAdjectives = ["快乐的", "爱吃", "安静的", "深夜", "北京", "上海", "成都", "迷路的", "会飞的", "小"]
    static let nameNouns = ["程序员", "猫咪", "咸鱼", "火锅", "兔子", "摄影师", "旅人", "熊猫", "橘子", "星星"]
    static let asciiWords = [
        "swift", "kafka", "coder", "lily", "tom", "panda", "river", "moon", "pixel", "neo", "echo",
        "mango", "ray", "kiwi",
    ]

    static let locations = [
        "北京 海淀区", "北京 朝阳区", "上海 浦东新区", "广东 深圳", "浙江 杭州", "四川 成都", "湖北 武汉",
        "海外 美国", "其他",
    ]

    static let descriptions = [
        "热爱生活，热爱代码", "摄影 | 旅行 | 美食", "Swift developer. 咖啡爱好者 ☕", "",
        "这个人很懒，什么都没有留下", "每天进步一点点 🌱", "I write about tech & cats 🐱", "微博认证：知名博主",
    ]

    static let verifiedReasons = ["知名科技博主", "摄影博主", "美食博主", "某某公司 工程师"]
}
