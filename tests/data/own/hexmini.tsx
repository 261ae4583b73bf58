<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="hexmini" tilewidth="18" tileheight="18" tilecount="20" columns="5">
 <tileoffset x="0" y="1"/>
 <image source="../tiled-examples/hexmini.png" width="106" height="72"/>
 <tile id="3"><properties><property name="terrain" value="forest"/><property name="cost" type="int" value="2"/></properties></tile>
 <tile id="15"><properties><property name="terrain" value="water"/></properties></tile>
</tileset>
